// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// The sleep timer in the session, on a manual clock: it counts listening time only, fades over its last
/// 10 s and pauses; `sleep chapter` pauses at the end of a chapter heard to its end, never at a chapter the
/// listener moved to.
@Suite struct SleepTimerSessionTests {
    private static let here = SessionBooks.text("a.xhtml", 0.1)

    private static func remaining(_ event: JSONObject) -> Double? { event["remaining"]?.doubleValue }

    @Test func theTimerStandsStillWhilePausedAndRunsWhilePlaying() async throws {
        var session = SessionHarness()
        try await session.navigator(.stateChanged(.playing, Self.here))
        try await session.command("sleep 30s")
        try await session.pass(10)
        #expect(session.loop.sleepTimer?.remaining == 20)
        try await session.navigator(.stateChanged(.paused, Self.here))
        try await session.pass(3600)
        #expect(session.loop.sleepTimer?.remaining == 20, "an hour paused took nothing off")
        #expect(!session.recorder.events("sleep").contains { $0["state"]?.stringValue == "fired" })
        try await session.navigator(.stateChanged(.playing, Self.here))
        try await session.pass(5)
        #expect(session.loop.sleepTimer?.remaining == 15)
    }

    @Test func aTimerSetWhilePausedStartsCountingWhenPlaybackPlays() async throws {
        var session = SessionHarness()
        try await session.navigator(.stateChanged(.paused, Self.here))
        try await session.command("sleep 1m")
        try await session.pass(600)
        #expect(session.loop.sleepTimer?.remaining == 60)
        try await session.navigator(.stateChanged(.playing, Self.here))
        try await session.pass(45)
        #expect(session.loop.sleepTimer?.remaining == 15)
    }

    @Test func theLastTenSecondsFadeThenPlaybackPausesAtTheListenersVolume() async throws {
        var session = SessionHarness()
        try await session.navigator(.stateChanged(.playing, Self.here))
        try await session.command("sleep 20s")
        try await session.pass(12)
        let volumes = { session.controller.commands.compactMap { if case .volume(let value) = $0 { value } else { nil } } }
        #expect(volumes().count == 1 && abs(volumes()[0] - 0.8) < 1e-9, "\(volumes())")
        try await session.pass(5)
        #expect(volumes().count == 2 && abs(volumes()[1] - 0.3) < 1e-9, "\(volumes())")
        #expect(!session.controller.commands.contains(.pause))
        try await session.pass(3.5)
        #expect(session.controller.commands.contains(.pause))
        #expect(volumes().last == 1, "the next play is heard at the listener's volume")
        let states = session.recorder.events("sleep").compactMap { $0["state"]?.stringValue }
        #expect(states == ["set", "fading", "fired"], "\(states)")
        #expect(session.loop.sleepTimer?.remaining == nil)
    }

    @Test func sleepChapterPausesAtTheEndOfAChapterHeardToItsEnd() async throws {
        let chapters = ChapterMap(publication: SessionBooks.textPublication(["a.xhtml", "b.xhtml", "c.xhtml"]))
        var session = SessionHarness(chapters: chapters)
        try await session.navigator(.stateChanged(.playing, SessionBooks.text("a.xhtml", 0)))
        try await session.command("sleep chapter")
        try await session.navigator(.utterance(text: "End of a.", language: "en", voice: "en-us", locator: SessionBooks.text("a.xhtml", 0.9)))
        #expect(!session.controller.commands.contains(.pause))
        try await session.navigator(.utterance(text: "Start of b.", language: "en", voice: "en-us", locator: SessionBooks.text("b.xhtml", 0)))
        #expect(session.controller.commands.contains(.pause))
        #expect(session.recorder.events("sleep").last?["state"]?.stringValue == "fired")
    }

    @Test func sleepChapterDoesNotFireWhenTheListenerSkipsToTheNextChapter() async throws {
        let chapters = ChapterMap(publication: SessionBooks.textPublication(["a.xhtml", "b.xhtml", "c.xhtml"]))
        var session = SessionHarness(chapters: chapters)
        try await session.navigator(.stateChanged(.playing, SessionBooks.text("a.xhtml", 0)))
        try await session.command("sleep chapter")
        try await session.command("chapter next")
        #expect(session.controller.commands.contains { if case .go = $0 { true } else { false } })
        // The navigator goes there: loading, then playing at the new chapter.
        try await session.navigator(.stateChanged(.loading, nil))
        try await session.navigator(.stateChanged(.playing, SessionBooks.text("b.xhtml", 0)))
        try await session.navigator(.utterance(text: "Start of b.", language: "en", voice: "en-us", locator: SessionBooks.text("b.xhtml", 0)))
        #expect(session.recorder.events("chapter").compactMap { $0["index"]?.intValue } == [1, 2])
        #expect(!session.controller.commands.contains(.pause), "moving to a chapter is not hearing one to its end")
        #expect(session.loop.sleepTimer?.untilChapterEnd == true)
        // Chapter 2 heard to its end: now it fires.
        try await session.navigator(.utterance(text: "Start of c.", language: "en", voice: "en-us", locator: SessionBooks.text("c.xhtml", 0)))
        #expect(session.controller.commands.contains(.pause))
    }

    @Test func sleepChapterDoesNotFireWhenTheListenerGoesBack() async throws {
        let chapters = ChapterMap(publication: SessionBooks.textPublication(["a.xhtml", "b.xhtml"]))
        var session = SessionHarness(chapters: chapters)
        try await session.navigator(.stateChanged(.playing, SessionBooks.text("b.xhtml", 0.5)))
        try await session.command("sleep chapter")
        // A `go` from a visual reader's own page, with no command the session saw: back in the book.
        try await session.navigator(.utterance(text: "In a.", language: "en", voice: "en-us", locator: SessionBooks.text("a.xhtml", 0.2)))
        #expect(!session.controller.commands.contains(.pause))
    }
}
