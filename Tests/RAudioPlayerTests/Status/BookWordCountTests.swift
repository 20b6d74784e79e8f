// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioPlayer

/// The words left in a book read aloud, from the element being heard to the end.
@Suite struct BookWordCountTests {
    static let book = BookWordCount(elements: [(0, 10), (0.1, 20), (0.1, 5), (0.5, 40), (0.9, 25)])

    @Test func theWordsLeftCountTheElementBeingHeardWhole() {
        #expect(Self.book.total == 100)
        #expect(Self.book.wordsLeft(from: 0) == 100)
        #expect(Self.book.wordsLeft(from: 0.1) == 90, "both elements at 0.1")
        #expect(Self.book.wordsLeft(from: 0.3) == 70, "an utterance inside the second element at 0.1 (a segment's own progression)")
        #expect(Self.book.wordsLeft(from: 0.5) == 65)
        #expect(Self.book.wordsLeft(from: 0.95) == 25)
        #expect(Self.book.wordsLeft(from: -1) == 100)
        #expect(BookWordCount(elements: []).wordsLeft(from: 0.5) == 0)
    }

    /// With the book's words known, the time left is its words left at the pace heard, however unevenly
    /// the words are spread over the book's bytes.
    @Test func thePaceUsesTheBooksWordsWhenCounted() throws {
        var status = PlayerStatus(mode: .speech)
        status.apply(.state(.playing, locator: nil), now: 0)
        for (index, progression) in [0.0, 0.0, 0.1].enumerated() {
            status.apply(.utterance(text: Array(repeating: "word", count: 10).joined(separator: " "), language: "en", voice: "en-us",
                                    locator: .init(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: progression))),
                         now: Double(index) * 4)
        }
        // 20 words in 8 s: 2.5 words a second. From the share heard (20 words a tenth): 0.9 of 200 words, 180 words, 72 s.
        #expect(abs(try #require(status.remainingAtSpeed) - 72) < 0.001)
        status.bookWords = Self.book
        #expect(abs(try #require(status.remainingAtSpeed) - 90 / 2.5) < 0.001, "90 words counted from 0.1 on")
    }
}
