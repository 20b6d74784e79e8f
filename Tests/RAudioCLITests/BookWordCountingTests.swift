// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// The words of a book read aloud, counted from its content for the terminal's time left.
@Suite struct BookWordCountingTests {
    @Test func theSampleBooksWordsAreCountedByPlace() throws {
        let publication = try PublicationLoading.open(path: SpeakCommandTests.sampleEPUB, checksContentDocuments: false)
        let count = try #require(BookWordCounting.count(publication, skipping: []))
        #expect(count.total > 50, "\(count.total) words")
        #expect(count.wordsLeft(from: 0.5) < count.total && count.wordsLeft(from: 0.5) > 0)
        #expect(count.wordsLeft(from: 1) < count.wordsLeft(from: 0.5))
    }

    /// The Waste Land's endnotes are not read by default: they are not counted either (the render of the book
    /// says 3569 words: 4618 with its 1045 words of endnotes).
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage)) func skippedRolesAreNotCounted() throws {
        let path = try Corpus.file("epub/idpf-epub3-samples/wasteland.epub").path
        let publication = try PublicationLoading.open(path: path, checksContentDocuments: false)
        let all = try #require(BookWordCounting.count(publication, skipping: []))
        let read = try #require(BookWordCounting.count(publication, skipping: ContentRole.skippableNames))
        #expect(all.total - read.total >= 1045, "\(all.total) against \(read.total)")
        #expect(abs(read.total - 3569) < 40, "\(read.total) words counted, 3569 spoken")
    }
}
