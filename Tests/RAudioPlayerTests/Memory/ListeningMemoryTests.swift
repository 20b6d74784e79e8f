// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// The listening memory in the process: a real store (SQLite in a folder of the test's own), the
/// session's events sent by the test, the time between saves on a manual clock.
@Suite struct ListeningMemoryTests {
    static let book = SessionBooks.textPublication(["ch1.xhtml", "ch2.xhtml", "ch3.xhtml"])

    /// A store in a new folder, removed when the test ends.
    final class Store {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-memory-\(UUID().uuidString)")
        let store: ListeningStateStore

        init() throws {
            store = try #require(ListeningStateStore.open(directory: folder).store)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func memory(clock: ManualClock = ManualClock(), warnings: Locked<[String]>? = nil) throws -> ListeningMemory {
            try ListeningMemory(store: store, publication: ListeningMemoryTests.book, path: "/books/test.epub", mode: "speak",
                                autoRewind: .off, clock: clock, warn: { warning in warnings?.withLock { $0.append(warning) } })
        }

        /// What the store holds for the book now.
        func record() throws -> BookRecord? {
            try store.book(key: BookIdentity.key(for: ListeningMemoryTests.book))
        }
    }

    @Test func aPausedPlaceIsWhereTheNextSessionResumes() throws {
        let store = try Store()
        let first = try store.memory()
        #expect(first.resumePoint == nil, "a new book starts at the beginning")
        first.note(.stateChanged(.playing, SessionBooks.text("ch1.xhtml", 0)))
        first.note(.utterance(text: "Two.", language: "en", voice: "en-us", locator: SessionBooks.text("ch2.xhtml", 0.5, "Two.")))
        first.note(.stateChanged(.paused, SessionBooks.text("ch2.xhtml", 0.5, "Two.")))
        first.sessionEnded(finished: false)
        let second = try store.memory()
        let resume = try #require(second.resumePoint)
        #expect(resume.locator.href == "ch2.xhtml" && resume.locator.text.highlight == "Two.")
        #expect(resume.rewind == 0)
    }

    @Test func whilePlayingThePlaceIsSavedEveryIntervalOfTheClock() throws {
        let store = try Store()
        let clock = ManualClock()
        let memory = try store.memory(clock: clock)
        memory.note(.stateChanged(.playing, SessionBooks.text("ch1.xhtml", 0)))
        #expect(try store.record()?.locator == nil, "playing is not a place to save yet")
        clock.advance(by: 14)
        memory.note(.position(SessionBooks.text("ch1.xhtml", 0.3)))
        #expect(try store.record()?.locator == nil, "14 s: not yet")
        clock.advance(by: 1)
        memory.note(.position(SessionBooks.text("ch1.xhtml", 0.4)))
        let saved = try #require(try store.record()?.locator)
        #expect(try Locator(jsonString: saved, source: "test").locations.progression == 0.4)
        // Paused: positions (a `go` while paused) move the place but wait for the next save.
        memory.note(.stateChanged(.paused, SessionBooks.text("ch1.xhtml", 0.45)))
        clock.advance(by: 60)
        memory.note(.position(SessionBooks.text("ch3.xhtml", 0)))
        #expect(try Locator(jsonString: try #require(try store.record()?.locator), source: "test").locations.progression == 0.45)
    }

    @Test func onlyAnEndHeardMarksTheBookFinished() throws {
        let store = try Store()
        let memory = try store.memory()
        memory.note(.stateChanged(.playing, SessionBooks.text("ch3.xhtml", 0.9)))
        memory.note(.stateChanged(.failed, SessionBooks.text("ch3.xhtml", 0.95)))
        #expect(try store.record()?.finished == false, "a failure keeps the place")
        #expect(try store.memory().resumePoint?.locator.href == "ch3.xhtml")
        memory.note(.stateChanged(.ended, SessionBooks.text("ch3.xhtml", 1)))
        #expect(try store.record()?.finished == true)
        #expect(try store.memory().resumePoint == nil, "a finished book starts over")
    }

    @Test func bookmarksAndSettingsAreKeptForTheBook() throws {
        let store = try Store()
        let memory = try store.memory()
        let bookmark = try memory.addBookmark(at: SessionBooks.text("ch2.xhtml", 0.25, "Here."), note: "here")
        #expect(try memory.bookmarks().map(\.id) == [bookmark.id])
        memory.note(PlayerCommand.speed(1.5))
        memory.note(PlayerCommand.voice("fr"))
        memory.note(PlayerCommand.pause)
        let next = try store.memory()
        #expect(next.rememberedSettings.speed == 1.5 && next.rememberedSettings.voice == "fr")
        #expect(try next.bookmarks().first?.note == "here")
    }

    /// The session ends the memory: a book whose last track was never heard is not finished, whatever
    /// the navigator's last word.
    /// A session over the navigator double whose listening memory is `memory`.
    static func harness(memory: ListeningMemory) -> SessionHarness {
        var harness = SessionHarness()
        harness.loop = SessionLoop(controller: harness.controller, writer: EventWriter(observers: [harness.recorder]), keepOpen: false, memory: memory)
        return harness
    }

    @Test func theSessionMarksFinishedOnlyWhatItHeardToTheEnd() async throws {
        let store = try Store()
        let memory = try store.memory()
        var harness = Self.harness(memory: memory)
        try await harness.navigator(.stateChanged(.playing, SessionBooks.text("ch3.xhtml", 0.5)))
        try await harness.navigator(.error(NavigatorIssue(code: .init(rawValue: "track-unreachable"), message: "gone", href: "ch3.xhtml", fatal: true)))
        try await harness.navigator(.stateChanged(.failed, SessionBooks.text("ch3.xhtml", 0.6)))
        memory.sessionEnded(finished: harness.loop.reachedTheEnd)
        #expect(try store.record()?.finished == false)
        #expect(try store.memory().resumePoint?.locator.locations.progression == 0.6)
    }

    /// A quit right after a move (the navigator is there, its events have not come yet): the place saved is where
    /// the stop left the navigator, as the last `stopped` event says, not the last place an event gave.
    @Test func aQuitBeforeTheMovesEventsSavesWhereTheStopLeftThePlayer() async throws {
        let store = try Store()
        let memory = try store.memory()
        var harness = Self.harness(memory: memory)
        try await harness.navigator(.stateChanged(.playing, SessionBooks.text("ch1.xhtml", 0.1)))
        harness.controller.current.withLock { $0 = (.stopped, SessionBooks.text("ch2.xhtml", 0.5)) }
        _ = try await harness.loop.handle(.stopRequested)
        memory.sessionEnded(finished: harness.loop.reachedTheEnd)
        #expect(harness.recorder.events("state").last?["locator"]?.objectValue?["href"]?.stringValue == "ch2.xhtml")
        let resume = try #require(try store.memory().resumePoint)
        #expect(resume.locator.href == "ch2.xhtml" && resume.locator.locations.progression == 0.5)
    }
}
