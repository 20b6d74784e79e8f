// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import ReadiumNavigator

/// The three navigators driven by one function written against the `Navigator` protocol alone: it
/// plays, pauses, seeks, goes to a locator and stops, observing states and positions through
/// `navigatorEvents`, `playbackState` and `currentLocator`. The books last seconds of wall time at
/// the paced sink's speed, far longer than a run, so that a busy machine never reaches their end before
/// the pause; a run itself takes a fraction of a second.
@Suite("Navigator protocol")
struct NavigatorProtocolTests {
    static let documents: [(href: String, paragraphs: [String])] = [
        ("one.xhtml", ["The first paragraph has a few words.", "The second one has some more words in it.", "A third closes the first page."]),
        ("two.xhtml", ["Here the second page starts with words.", "And it ends with these."]),
    ]
    /// Where each run goes: the second document.
    static let target = Locator(href: "two.xhtml", type: "application/xhtml+xml", locations: .init(fragments: ["p1"], progression: 0))

    /// What a run through the protocol saw.
    struct Run {
        var states: [PlaybackState] = []
        var pausedAt: Locator?
        var seekAnswer: Bool?
        var afterGo: Locator?
        var eventsAfterGo: [NavigatorEvent] = []
        var finalState: PlaybackState?
    }

    /// Plays, pauses, seeks to 0.5 s, goes to `target` and plays there, then stops and closes: only
    /// `Navigator`'s members are used.
    static func drive(_ navigator: some Navigator, to target: Locator) async throws -> Run {
        let log = Locked<[NavigatorEvent]>([])
        let reading = Task {
            for await event in navigator.navigatorEvents { log.withLock { $0.append(event) } }
        }
        var run = Run()
        await navigator.setVolume(0.8)
        await navigator.setSpeed(1)
        await navigator.play()
        try await waitUntil("playing") {
            let (state, locator) = (await navigator.playbackState, await navigator.currentLocator)
            return state == .playing && locator != nil
        }
        await navigator.pause()
        try await waitUntil("paused") { await navigator.playbackState == .paused }
        run.pausedAt = await navigator.currentLocator
        run.seekAnswer = await navigator.seek(to: 0.5)
        let beforeGo = log.withLock { $0.count }
        try await navigator.go(to: target)
        await navigator.play()
        try await waitUntil("playing at \(target.href)") {
            let (state, locator) = (await navigator.playbackState, await navigator.currentLocator)
            return state == .playing && document(of: locator) == document(of: target)
        }
        run.afterGo = await navigator.currentLocator
        await navigator.stop()
        try await waitUntil("stopped") { await navigator.playbackState == .stopped }
        run.finalState = await navigator.playbackState
        await navigator.close()
        await reading.value // the stream finishes with close()
        let events = log.withLock { $0 }
        run.states = events.compactMap(Self.state)
        run.eventsAfterGo = Array(events[beforeGo...])
        return run
    }

    /// The locator's resource, without a fragment (a narration's locators name their `par`'s element:
    /// `two.xhtml#p1`).
    static func document(of locator: Locator?) -> String? {
        locator.map { String($0.href.prefix { $0 != "#" }) }
    }

    static func state(_ event: NavigatorEvent) -> PlaybackState? {
        switch event {
        case .stateChanged(let state, _): state
        case .withAudioLocator(let inner, _): state(inner)
        default: nil
        }
    }

    static func locator(_ event: NavigatorEvent) -> Locator? {
        switch event {
        case .stateChanged(_, let locator): locator
        case .position(let locator), .range(let locator): locator
        case .track(_, _, let locator), .utterance(_, _, _, let locator, _), .narration(_, _, let locator), .media(_, _, let locator): locator
        case .withAudioLocator(let inner, _): locator(inner)
        case .warning, .error: nil
        }
    }

    /// Polls `condition` every 5 ms; fails the test after 5 s.
    static func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("not \(what) after 5 s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What every navigator must show: the states in order, a place when paused, the place gone to
    /// heard and reported, and the stream finished.
    static func expectCommonBehaviour(_ run: Run, target: Locator = target, sourceLocation: SourceLocation = #_sourceLocation) {
        let order: [PlaybackState] = [.playing, .paused, .playing, .stopped]
        var remaining = order[...]
        for state in run.states where state == remaining.first { remaining = remaining.dropFirst() }
        #expect(remaining.isEmpty, "states \(run.states) lack \(Array(remaining)) in that order", sourceLocation: sourceLocation)
        #expect(run.pausedAt != nil, "a paused navigator says where it is", sourceLocation: sourceLocation)
        #expect(document(of: run.afterGo) == target.href, sourceLocation: sourceLocation)
        #expect(run.eventsAfterGo.contains { document(of: locator($0)) == target.href }, "an event reports the place gone to", sourceLocation: sourceLocation)
        #expect(run.finalState == .stopped, sourceLocation: sourceLocation)
    }

    @Test func anAudiobookPlaysPausesSeeksAndGoesThroughTheProtocol() async throws {
        let publication = TestBooks.publication(["30000.mp3", "40000.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.pacedComponents())
        let target = Locator(href: "40000.mp3", type: "audio/mpeg", locations: .init(fragments: ["t=1"]))
        let run = try await Self.drive(navigator, to: target)
        Self.expectCommonBehaviour(run, target: target)
        #expect(run.seekAnswer == true, "an audiobook has a timeline")
        #expect(run.pausedAt?.href == "30000.mp3")
        #expect((run.afterGo?.locations.time?.begin ?? 0) >= 1, "played on from the place gone to: \(String(describing: run.afterGo))")
        #expect(run.eventsAfterGo.contains { if case .track(1, _, _) = $0 { true } else { false } })
    }

    @Test func speechPlaysPausesAndGoesThroughTheProtocolAndAnswersSeekWithFalse() async throws {
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: TestBooks.textPublication(Self.documents), engine: WordToneEngine(), components: TestBooks.pacedComponents())
        let run = try await Self.drive(synthesizer, to: Self.target)
        Self.expectCommonBehaviour(run)
        #expect(run.seekAnswer == false, "text read aloud has no timeline")
        #expect(run.afterGo?.text.highlight == "Here the second page starts with words.", "\(String(describing: run.afterGo))")
        #expect(run.eventsAfterGo.contains { if case .utterance(let text, "en", "test-en", _, _) = $0 { text.hasPrefix("Here") } else { false } })
    }

    @Test func aNarrationPlaysPausesSeeksAndGoesThroughTheProtocol() async throws {
        let publication = TestBooks.narratedPublication(Self.documents, audio: "50000.mp3", clipSeconds: 10)
        let navigator = try MediaOverlayNavigator(publication: publication, components: TestBooks.pacedComponents(), engine: nil)
        let run = try await Self.drive(navigator, to: Self.target)
        Self.expectCommonBehaviour(run)
        #expect(run.seekAnswer == true, "recorded clips make a timeline")
        #expect(run.afterGo?.locations.fragments == ["p1"] || run.afterGo?.locations.cssSelector == "#p1", "\(String(describing: run.afterGo))")
        #expect(run.eventsAfterGo.contains {
            if case .withAudioLocator(.narration(let text, "en", _), let audio?) = $0 { text.hasPrefix("Here") && audio.href == "50000.mp3" } else { false }
        })
    }
}
