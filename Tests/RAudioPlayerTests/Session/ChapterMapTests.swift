// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// Chapters that share a file (Project Gutenberg's layout): each table-of-contents entry `book.xhtml#chN`
/// is placed at its element, so the chapter being heard, `chapter N` and `sleep chapter` follow the text.
@Suite struct ChapterMapTests {
    @Test func everySentenceBelongsToTheChapterWhoseHeadingPrecedesIt() throws {
        let (publication, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unplaced = ChapterMap(publication: publication)
        #expect(unplaced.entries.map(\.title) == ["Front", "Chapter 1. Loomings", "Chapter 2. The Carpet-Bag", "Chapter 3. The Spouter-Inn", "Epilogue"])
        #expect(unplaced.hasUnplacedFragments)
        let chapters = unplaced.placingFragments(of: publication)
        #expect(!chapters.hasUnplacedFragments)
        // Every element of the book, as the synthesizer reads it, against the heading text before it.
        var heading = "Front"
        for element in try publication.content().elements() {
            guard let text = (element as? TextContentElement)?.text else { continue }
            if text.hasPrefix("CHAPTER 1.") { heading = "Chapter 1. Loomings" }
            if text.hasPrefix("CHAPTER 2.") { heading = "Chapter 2. The Carpet-Bag" }
            if text.hasPrefix("CHAPTER 3.") { heading = "Chapter 3. The Spouter-Inn" }
            if text.hasPrefix("Epilogue") { heading = "Epilogue" }
            let index = chapters.index(of: element.locator)
            #expect(index.map { chapters.entries[$0].title } == heading, "“\(text)” at \(element.locator.locations.progression ?? -1)")
        }
    }

    @Test func chapterCommandsGoToTheEntrysElementNotTheTopOfItsFile() throws {
        let (publication, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chapters = ChapterMap(publication: publication)
        let third = chapters.entries[2]
        #expect(third.locator.href == "OEBPS/book.xhtml" && third.locator.locations.fragments == ["ch2"], "\(third.locator)")
        // Where the synthesizer starts from that locator: the chapter's heading.
        let first = try publication.content(from: third.locator).iterator().next() as? TextContentElement
        #expect(first?.text.hasPrefix("CHAPTER 2.") == true, "\(first?.text ?? "nothing")")
    }

    @Test func whileTheEntriesOfAFileAreNotPlacedNoChapterIsAnnounced() throws {
        let (publication, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unplaced = ChapterMap(publication: publication)
        #expect(unplaced.index(of: SessionBooks.text("OEBPS/book.xhtml", 0.5)) == nil, "a wrong chapter would be announced, then taken back")
    }

    @Test func theSessionFollowsChaptersOnceTheyArePlaced() async throws {
        let (publication, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chapters = ChapterMap(publication: publication)
        var session = SessionHarness(chapters: chapters)
        let elements = try publication.content().elements().compactMap { $0 as? TextContentElement }
        let ishmael = try #require(elements.first { $0.text.hasPrefix("Call me Ishmael") })
        try await session.navigator(.utterance(text: ishmael.text, language: "en", voice: "en-us", locator: ishmael.locator))
        #expect(session.recorder.events("chapter").isEmpty)
        _ = try await session.loop.handle(.chaptersPlaced(chapters.placingFragments(of: publication)))
        #expect(session.recorder.events("chapter").map { $0["title"]?.stringValue } == ["Chapter 1. Loomings"])
        try await session.command("toc")
        let toc = try #require(session.recorder.events("toc").last?["entries"]?.arrayValue)
        #expect(toc.compactMap(\.objectValue).filter { $0["current"] == .bool(true) }.map { $0["title"]?.stringValue } == ["Chapter 1. Loomings"])
        // `chapter next` goes to chapter 2's heading.
        try await session.command("chapter next")
        guard case .go(let json)? = session.controller.commands.last else {
            Issue.record("no go: \(session.controller.commands)")
            return
        }
        let target = try Locator(jsonString: String(decoding: json, as: UTF8.self))
        #expect(target.href == "OEBPS/book.xhtml" && target.locations.fragments == ["ch2"], "\(target)")
    }

    @Test func oneChapterPerFileBooksAreUnchanged() throws {
        let chapters = ChapterMap(publication: SessionBooks.textPublication(["a.xhtml", "b.xhtml"]))
        #expect(!chapters.hasUnplacedFragments)
        #expect(chapters.index(of: SessionBooks.text("a.xhtml", 0.7)) == 0)
        #expect(chapters.index(of: SessionBooks.text("b.xhtml", 0)) == 1)
    }
}
