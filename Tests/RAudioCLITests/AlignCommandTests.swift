// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio align`, the built binary, on the W3C Moby-Dick excerpt (a human narration: 29 s of LibriVox announcement,
/// the two sentences of the text, then 43 s more of the chapter), compared with the publisher's own SMIL (the
/// sentences from 0:00:29.268 to 0:00:44.783): the text found there, the rest of the audio and the page that is not
/// narrated reported, the written EPUB played by raudio with no warning and no new EPUBCheck message; bad input
/// refused with its exit status and nothing under the output's name.
@Suite(.serialized) struct AlignCommandTests {
    static let book = "epub/w3c-epub-tests/mol-audio.epub"

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func mobyDickFoundAfterItsAnnouncementAsItsPublisherTimedIt() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Corpus.file(Self.book)
        let mp3 = folder.appendingPathComponent("mobydick_1.mp3")
        _ = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-o", "-j", source.path, "EPUB/audio/mobydick_1.mp3", "-d", folder.path])
        #expect(FileManager.default.fileExists(atPath: mp3.path))
        let output = folder.appendingPathComponent("synced.epub"), json = folder.appendingPathComponent("synced.json")
        let run = try ProcessRunner.raudio(["align", source.path, mp3.path, "--to", "epub3", output.path, "--alignment", json.path, "--jobs", "2"], timeout: 600)
        #expect(run.status == 0, "\(run.standardError)")
        let events = RenderCommandTests.events(run.standardOutput)
        #expect(events.first?["type"] == "started")
        #expect(events.last?["type"] == "done")
        let alignment = try JSONParser.parse(Data(contentsOf: json))
        let sentences = alignment.objectValue?["sentences"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let moby = sentences.filter { $0["href"]?.stringValue == "EPUB/mobydick.xhtml" }
        #expect(moby.count == 2)
        let begin = moby.first?["begin"]?.doubleValue ?? -1, end = moby.last?["end"]?.doubleValue ?? -1
        #expect(abs(begin - 29.268) < 1, "the text starts at \(begin) s; the publisher's SMIL says 29.268")
        #expect(abs(end - 44.783) < 1, "the text ends at \(end) s; the publisher's SMIL says 44.783")
        // The instructions page is not narrated; the announcement and the rest of the chapter are audio with no text.
        #expect(sentences.filter { $0["href"]?.stringValue == "EPUB/content_001.xhtml" }.allSatisfy { $0["begin"] == nil })
        let unmatched = events.filter { $0["type"] == "unmatched-audio" }
        #expect(unmatched.contains { ($0["begin"]?.doubleValue ?? -1) == 0 && abs(($0["end"]?.doubleValue ?? 0) - 29.3) < 1.5 }, "\(unmatched)")
        #expect(events.contains { $0["type"] == "unmatched-text" && $0["href"] == "EPUB/content_001.xhtml" && $0["reason"] == "not-narrated" })
        // raudio plays the synced book without a warning.
        let play = try ProcessRunner.raudio(["play", output.path, "--output", "null"], environment: ["RAUDIO_NO_STATE": "1"], timeout: 300)
        #expect(play.status == 0, "\(play.standardError)")
        let warnings = RenderCommandTests.events(play.standardOutput).filter { $0["type"] == "warning" }
        #expect(warnings.isEmpty, "\(warnings)")
        if EPUBCheck.isAvailable {
            let before = try EPUBCheck.problems(in: source).map(\.code)
            let new = try EPUBCheck.problems(in: output).filter { !before.contains($0.code) }
            #expect(new.isEmpty, "\(new)")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anEmptyAudioFileIsRefusedAndNothingIsWritten() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.mp3")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        let output = folder.appendingPathComponent("synced.epub")
        let run = try ProcessRunner.raudio(["align", try Corpus.file(Self.book).path, empty.path, "--to", "epub3", output.path], timeout: 300)
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains("empty.mp3"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let error = RenderCommandTests.events(run.standardOutput).last
        #expect(error?["type"] == "error" && error?["fatal"] == .bool(true))
    }

    @Test func wordGranularityIsRefusedWithItsReason() throws {
        let run = try ProcessRunner.raudio(["align", "book.epub", "book.m4b", "--to", "epub3", "out.epub", "--granularity", "word"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--granularity word"))
    }
}
