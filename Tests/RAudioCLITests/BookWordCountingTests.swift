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

    /// The Waste Land's notes section ("NOTES ON THE WASTE LAND", Eliot's introduction and every note) is not
    /// read by default: it is not counted either (about 1,550 of its 4,618 words). The words counted are those
    /// of what `raudio text` gives to speak with the same roles skipped.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage)) func skippedRolesAreNotCounted() throws {
        let path = try Corpus.file("epub/idpf-epub3-samples/wasteland.epub").path
        let publication = try PublicationLoading.open(path: path, checksContentDocuments: false)
        let all = try #require(BookWordCounting.count(publication, skipping: []))
        let read = try #require(BookWordCounting.count(publication, skipping: ContentRole.skippableNames))
        #expect(all.total - read.total >= 1500, "\(all.total) against \(read.total)")
        let text = try ProcessRunner.raudio(["text", path, "--skip", ContentRole.skippableNames.sorted().joined(separator: ",")], timeout: 60)
        #expect(text.status == 0, "\(text.standardError)")
        let spoken = try text.outputLines.reduce(0) { sum, line in
            sum + (try JSONParser.parse(line).objectValue?["text"]?.stringValue ?? "").split(whereSeparator: \.isWhitespace).count
        }
        #expect(spoken > 3000 && abs(read.total - spoken) < 40, "\(read.total) words counted, \(spoken) given to speak")
    }
}
