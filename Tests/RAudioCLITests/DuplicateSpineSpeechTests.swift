// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio speak` on a spine that repeats a document (W3C pkg-spine-duplicate-item-rendering): each
/// occurrence is spoken at its own place, and `--from` and a resumed session come back to the occurrence
/// they name, not the first.
@Suite(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
struct DuplicateSpineSpeechTests {
    static var book: String { (try? Corpus.file("epub/w3c-epub-tests/pkg-spine-duplicate-item-rendering.epub").path) ?? "" }

    /// The `totalProgression` of each utterance of the repeated document.
    static func repeatedPlaces(_ result: ProcessResult) throws -> [Double] {
        try result.outputLines.map { try JSONParser.parse(Array($0.utf8)) }.compactMap(\.objectValue)
            .filter { $0["type"]?.stringValue == "utterance" && $0["text"]?.stringValue?.contains("occurs three times") == true }
            .compactMap { $0["locator"]?.objectValue?["locations"]?.objectValue?["totalProgression"]?.doubleValue }
    }

    @Test func eachOccurrenceIsSpokenAndResumedAtItsOwnPlace() throws {
        let all = try Self.repeatedPlaces(try ProcessRunner.raudio(["speak", Self.book, "--output", "null", "--no-state"], timeout: 120))
        #expect(all.count == 3 && Set(all).count == 3, "\(all)")
        try #require(all.count == 3)
        let third = #"{"href":"EPUB/content_002.xhtml","type":"application/xhtml+xml","locations":{"progression":0,"totalProgression":\#(all[2])}}"#
        let fromThird = try Self.repeatedPlaces(try ProcessRunner.raudio(["speak", Self.book, "--output", "null", "--no-state", "--from", third], timeout: 120))
        #expect(fromThird == [all[2]])
        // Stopped in the second occurrence, the book resumes there.
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-dup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let second = #"{"href":"EPUB/content_002.xhtml","type":"application/xhtml+xml","locations":{"progression":0,"totalProgression":\#(all[1])}}"#
        let environment = ["RAUDIO_STATE_DIR": state.path]
        let stopped = try ProcessRunner.raudio(["speak", Self.book, "--output", "null", "--from", second, "--duration", "0.5"], environment: environment, timeout: 120)
        #expect(stopped.status == 0, "\(stopped.standardError)")
        let resumed = try ProcessRunner.raudio(["speak", Self.book, "--output", "null"], environment: environment, timeout: 120)
        #expect(try Self.repeatedPlaces(resumed) == [all[1], all[2]], "\(resumed.standardError)")
    }
}

/// `raudio speak` on a spine of SVG pages (W3C pkg-spine-order-svg) reads their text, page by page.
@Suite(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
struct SVGSpeechTests {
    @Test func aSpineOfSVGPagesIsSpoken() throws {
        let book = try Corpus.file("epub/w3c-epub-tests/pkg-spine-order-svg.epub").path
        let result = try ProcessRunner.raudio(["speak", book, "--output", "null", "--no-state"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let utterances = try result.outputLines.map { try JSONParser.parse(Array($0.utf8)) }.compactMap(\.objectValue)
            .filter { $0["type"]?.stringValue == "utterance" }
        #expect(utterances.compactMap { $0["text"]?.stringValue }.suffix(4) == ["Page 1", "Page 2", "Page 3", "Page 4"])
        #expect(utterances.allSatisfy { $0["locator"]?.objectValue?["locations"]?.objectValue?["cssSelector"]?.stringValue?.hasPrefix("svg > text") == true })
    }
}
