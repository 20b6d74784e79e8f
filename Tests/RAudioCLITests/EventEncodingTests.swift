// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
@testable import RAudioState
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// The byte encoder stdout and the IPC clients get (`JSONValue.compactUTF8`, encoded once per event)
/// writes exactly the text of the plain encoder (`serialized()`), for every kind of event.
@Suite struct EventEncodingTests {
    /// Text that needs every escape: quotes, backslashes, controls, U+2028/2029, and non-ASCII runs.
    static let awkward = "Moby \"Dick\" \\ C:\\path\n\r\t\u{08}\u{0C}\u{01}\u{1F} line\u{2028}para\u{2029} é 漢字 👩‍👩‍👧 \u{7F} \u{E2}\u{80}\u{A7} end"

    static var locator: Locator {
        Locator(
            href: "OPS/chapter \"1\".xhtml", type: "application/xhtml+xml", title: awkward,
            locations: .init(fragments: ["id-1", "t=0.5"], progression: 0.3333333333333333, totalProgression: 1, position: 12),
            text: .init(before: awkward, highlight: "word\u{2028}", after: "\u{0}after"))
    }

    static var everyEvent: [(String, JSONValue)] {
        everyTypedEvent.map { ($0.0, $0.1.json) }
    }

    static var everyTypedEvent: [(String, PlayerEvent)] {
        let chapter = ChapterMap.Entry(title: awkward, href: "a.xhtml", depth: 1, readingOrderIndex: 0, start: 12.75, locator: locator)
        let bookmark = Bookmark(id: 7, locator: locator.json.serialized(), note: awkward, created: 1_700_000_000.5)
        let link = Link(href: "audio/01 \"intro\".mp3", title: awkward)
        return [
            ("state", PlayerEvent.state(.playing, locator: locator)),
            ("settings", PlayerEvent.settings(PlayerSettings(speed: 1.25, volume: 0.8, pitch: 1, voice: "fr"))),
            ("position", PlayerEvent.position(locator)),
            ("track", PlayerEvent.track(index: 3, link: link, locator: locator)),
            ("utterance", PlayerEvent.utterance(text: awkward, language: "en-US", voice: "en-us", locator: locator)),
            ("narration", PlayerEvent.narration(text: awkward, language: nil, locator: locator)),
            ("range", PlayerEvent.range(locator)),
            ("sleep", PlayerEvent.sleep(SleepEvent(state: .running, remaining: 59.999, untilChapterEnd: true, locator: locator))),
            ("chapter", PlayerEvent.chapter(chapter, index: 0, locator: locator)),
            ("toc", PlayerEvent.toc([chapter, chapter], current: 1)),
            ("bookmark", PlayerEvent.bookmark(bookmark)),
            ("bookmarks", PlayerEvent.bookmarks([bookmark, bookmark])),
            ("warning", PlayerEvent.issue(.warning, code: "chapter-skipped", message: awkward, fatal: false, href: "a.xhtml", locator: locator, id: .number(3))),
            ("error", PlayerEvent.issue(.error, code: "command-bad-value", message: awkward, fatal: true, id: .string(awkward))),
            ("listening", PlayerEvent.listening(address: IPCAddress.webSocket(host: "127.0.0.1", port: 4321).description, page: "http://127.0.0.1:4321/")),
            ("ack", PlayerEvent.ack(.speed(1.5), id: .number(2.5))),
        ]
    }

    @Test func everyEventKindEncodesToThePlainEncodersText() {
        for (kind, event) in Self.everyEvent {
            let fast = String(decoding: event.compactUTF8, as: UTF8.self)
            #expect(fast == event.serialized(), "\(kind)")
            #expect((try? JSONParser.parse(Array(fast.utf8))) == event, "\(kind) reads back")
        }
    }

    @Test func numbersAndEmptyContainersMatchToo() {
        let values: [JSONValue] = [
            .integer(-42), .integer(Int64.max), .number(0.1), .number(1e300), .number(-0.0), .number(.nan), .number(3),
            .array([]), .object(JSONObject()), .null, .bool(true), .bool(false), .string(""), .string("\u{2028}\u{2029}"),
        ]
        for value in values {
            #expect(String(decoding: value.compactUTF8, as: UTF8.self) == value.serialized(), "\(value)")
        }
    }

    /// The real binary: every line `raudio speak` prints is the plain encoder's text of that event.
    @Test func speakPrintsWhatThePlainEncoderWrites() throws {
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.count > 20)
        var kinds = Set<String>()
        for line in lines {
            let value = try JSONParser.parse(Array(line.utf8))
            #expect(value.serialized() == line)
            if case .object(let fields) = value, let kind = fields["type"]?.stringValue { kinds.insert(kind) }
        }
        #expect(kinds.isSuperset(of: ["opened", "settings", "state", "utterance", "range"]), "\(kinds)")
    }
}
