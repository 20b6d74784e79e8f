// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Note references inside sentences (`<a epub:type="noteref">1</a>` in the Georgia sample): shown by
/// `raudio text`, left out by `raudio speak` unless `--skip` leaves `noteref` out of its list.
@Suite(.enabled(if: RAudioBinary.isBuilt, "build raudio first (swift build)"))
struct NoteRefSpeechTests {
    static let georgia = "epub/idpf-epub3-samples/georgia-pls-ssml.epub"

    /// The `raudio text` lines, as objects.
    static func textLines(_ arguments: [String]) throws -> [JSONObject] {
        let result = try RAudioBinary.run(["text", try Corpus.file(georgia).path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.lines.map { line in try #require(try JSONParser.parse(line).objectValue, "\(line)") }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func textShowsNoteReferencesAndLeavesThemOutWithSkipNoteref() throws {
        let all = try Self.textLines([]).compactMap { $0["text"]?.stringValue }
        #expect(all.contains { $0.contains("the upper Savannah1 was formerly") })
        #expect(all.contains { $0.contains("In that year2 there were") })
        let skipping = try Self.textLines(["--skip", "noteref"]).compactMap { $0["text"]?.stringValue }
        #expect(skipping.count == all.count)
        #expect(skipping.contains { $0.contains("the upper Savannah was formerly") })
        #expect(!skipping.contains { $0.contains("Savannah1") || $0.contains("year2") })
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func speakSkipsNoteReferencesByDefaultAndSpeaksThemWithAnEmptySkipList() throws {
        let line = try #require(try Self.textLines([]).first { $0["text"]?.stringValue?.contains("Savannah1") == true })
        let from = try #require(line["locator"]).serialized()
        func spoken(_ extra: [String]) throws -> [String] {
            let (result, events) = try SpeakCommandTests.speak(
                [try Corpus.file(Self.georgia).path, "--output", "null", "--from", from, "--duration", "15"] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return SpeakCommandTests.utterances(events).compactMap { $0["text"]?.stringValue }
        }
        let byDefault = try spoken([])
        #expect(byDefault.first?.contains("the upper Savannah was formerly") == true, "\(byDefault.prefix(2))")
        #expect(!byDefault.contains { $0.contains("Savannah1") })
        let everything = try spoken(["--skip", ""])
        #expect(everything.first?.contains("the upper Savannah1 was formerly") == true, "\(everything.prefix(2))")
    }
}
