// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer
@testable import RAudioState

/// docs/events.schema.json checked against the Swift types: every kind of event raudio can print
/// (`PlayerEvent.Kind`) has its entry in the schema and an example made by the real builders that the schema
/// accepts, and the schema's command names are `PlayerCommand.Name`'s. A kind or a command added in Swift
/// without its schema entry fails here.
@Suite struct EventTypesSchemaTests {
    private func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: EventSchemaValidator.schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theSchemaKnowsEveryKindOfEventAndNoOther() throws {
        let schema = try schema()
        let types = try #require((schema["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["enum"] as? [String] })
        #expect(Set(types) == Set(PlayerEvent.Kind.allCases.map(\.rawValue)))
        let conditions = try #require(schema["allOf"] as? [[String: Any]])
        let described = conditions.compactMap { condition in
            ((condition["if"] as? [String: Any])?["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["const"] as? String }
        }
        for kind in PlayerEvent.Kind.allCases {
            #expect(described.contains(kind.rawValue), "no schema definition for \(kind.rawValue) events")
        }
        #expect(EventSelection.knownKinds == PlayerEvent.Kind.allCases.map(\.rawValue))
    }

    @Test func theSchemaKnowsEveryCommandAndNoOther() throws {
        let definitions = try #require(try schema()["definitions"] as? [String: Any])
        let ack = try #require((definitions["ack"] as? [String: Any])?["properties"] as? [String: Any])
        let names = try #require((ack["command"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(names) == Set(PlayerCommand.Name.allCases.map(\.rawValue)))
    }

    /// An event of `kind` as the session makes it.
    private static func example(_ kind: PlayerEvent.Kind) throws -> PlayerEvent {
        let audio = Locator(href: "01.mp3", type: "audio/mpeg", title: "Chapter 1", locations: .init(fragments: ["t=12.5"], progression: 0.5, totalProgression: 0.1))
        let text = Locator(href: "ch1.xhtml", type: "application/xhtml+xml", locations: .init(progression: 0.2),
                           text: .init(before: "It was a ", highlight: "dark", after: " night."))
        let publication = SessionBooks.textPublication(["ch1.xhtml", "ch2.xhtml"])
        let chapters = ChapterMap(publication: publication)
        let bookmark = Bookmark(id: 3, locator: audio.json.serialized(), note: "the storm", created: 1_700_000_000)
        switch kind {
        case .opened:
            var opened = OpenedPublication(publication, duration: 61.7)
            (opened.activeClass, opened.playbackActiveClass) = ("-epub-media-overlay-active", "-epub-media-overlay-playing")
            return .opened(opened)
        case .state: return PlayerEvent.state(.paused, locator: audio)
        case .position: return PlayerEvent.position(audio)
        case .track: return PlayerEvent.track(index: 0, link: Link(href: "01.mp3", type: "audio/mpeg", title: "Chapter 1"), locator: audio)
        case .warning: return PlayerEvent.issue(.warning, code: "track-corrupt", message: "01.mp3: has no audio data", fatal: false, href: "01.mp3", locator: audio)
        case .error: return PlayerEvent.issue(.error, code: "track-unreachable", message: "01.mp3: cannot connect", fatal: true, href: "01.mp3", locator: audio)
        case .ack: return PlayerEvent.ack(.chapter(.next), id: .number(7))
        case .utterance: return PlayerEvent.utterance(text: "It was a dark night.", language: "en", voice: "en-us", locator: text)
        case .range: return PlayerEvent.range(text)
        case .bookmark: return PlayerEvent.bookmark(bookmark)
        case .bookmarks: return PlayerEvent.bookmarks([bookmark])
        case .sleep: return PlayerEvent.sleep(SleepEvent(state: .set, remaining: 1800))
        case .chapter: return PlayerEvent.chapter(chapters.entries[1], index: 1, locator: text)
        case .toc: return PlayerEvent.toc(chapters.entries, current: 1)
        case .settings: return PlayerEvent.settings(PlayerSettings(speed: 1.5, volume: 0.8, pitch: 1, voice: "en-us"))
        case .hello:
            var hello = IPCHelloState()
            hello.apply(PlayerEvent.opened(publication, duration: nil))
            hello.apply(PlayerEvent.state(.playing, locator: text))
            hello.apply(PlayerEvent.settings(PlayerSettings(speed: 1.5, volume: 0.8, pitch: 1, voice: "en-us")))
            return hello.event
        case .listening: return PlayerEvent.listening(address: try #require(IPCAddress(argument: "ws://127.0.0.1:43125")).description, page: "http://127.0.0.1:43125/")
        }
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
    func anEventOfEveryKindMadeByTheBuildersMatchesTheSchema() throws {
        let events = try PlayerEvent.Kind.allCases.map { try Self.example($0).json }
        for (kind, event) in zip(PlayerEvent.Kind.allCases, events) {
            #expect(event.objectValue?["type"]?.stringValue == kind.rawValue)
        }
        let lines = events.map { $0.serialized() }
        let verdicts = try EventSchemaValidator.verdicts(for: lines)
        #expect(verdicts.count == lines.count)
        for (line, verdict) in zip(lines, verdicts) {
            #expect(verdict == "ok", "\(line): \(verdict)")
        }
    }

    /// The other two shapes of an `utterance` event, a narrated item and the page's own audio played in
    /// place (empty text, no voice), match the schema; one of media with text but no source does not.
    @Test(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
    func narrationAndMediaUtterancesMatchTheSchema() throws {
        let element = Locator(href: "ch1.xhtml", type: "application/xhtml+xml", locations: .init(progression: 0.9, otherLocations: ["cssSelector": .string("html > body > audio")]))
        let narration = PlayerEvent.narration(text: "It was a dark night.", language: nil, locator: element)
        let media = PlayerEvent.media(kind: .audio, source: Link(href: "aud/001.mp3", type: "audio/mpeg"), locator: element)
        #expect(media.kind == .utterance)
        var broken = try #require(media.json.objectValue)
        broken["media"] = .object(["kind": .string("audio")])
        let lines = [narration.json.serialized(), media.json.serialized(), JSONValue.object(broken).serialized()]
        let verdicts = try EventSchemaValidator.verdicts(for: lines)
        #expect(verdicts.count == 3)
        #expect(verdicts.first == "ok", "\(lines[0])")
        #expect(verdicts.dropFirst().first == "ok", "\(lines[1])")
        #expect(verdicts.last != "ok", "\(lines[2]) was accepted")
    }
}
