// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// `raudio play AUDIOBOOK --text BOOK.epub` against `raudio play OUT.epub` of `raudio align BOOK.epub AUDIOBOOK --to
/// epub3 OUT.epub`: the same events (text locators, audio clips, times), the alignment made once and kept.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), .serialized)
struct PlayTextSyncTests {
    static let chapters = [
        ["The Lighthouse", "The lighthouse stood at the end of a long stone pier.",
         "Every evening the keeper climbed its hundred steps to light the lamp.",
         "Ships far out at sea watched for its slow white beam."],
        ["The Storm", "One night in October a storm came in from the west.",
         "The waves broke over the pier and the windows shook in their frames.",
         "The keeper kept the lamp burning until the grey morning came."],
        ["The Morning", "When the wind had fallen, the harbour was full of broken boats.",
         "Nobody had drowned, and the fishermen came to thank the keeper.",
         "He made them tea and said that the light had done the work."],
    ]

    /// The book as an EPUB file (a ZIP: `raudio align` writes into a copy of it), three chapters of four sentences.
    static func book(in folder: TemporaryDirectory) throws -> String {
        let pages = chapters.enumerated().map { index, sentences in
            (name: "chapter-\(index + 1).xhtml", mediaType: "application/xhtml+xml",
             source: TestBooks.xhtml(["<b>\(sentences[0])</b>", sentences.dropFirst().joined(separator: " ")], lang: "en"))
        }
        let unpacked = try TestBooks.epub(pages: pages, language: "en")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let path = folder.path("lighthouse.epub")
        let zipped = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import os, sys, zipfile
            root, out = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(out, "w") as archive:
                archive.writestr(zipfile.ZipInfo("mimetype", (2026, 1, 1, 0, 0, 0)), "application/epub+zip")
                for folder, _, files in sorted(os.walk(root)):
                    for name in sorted(files):
                        path = os.path.join(folder, name)
                        relative = os.path.relpath(path, root)
                        if relative != "mimetype":
                            archive.write(path, relative, zipfile.ZIP_DEFLATED)
            """, unpacked.path, path])
        #expect(zipped.status == 0, "\(zipped.standardError)")
        return path
    }

    /// The events of a play, less those that name the file played or the wall clock.
    static func timeline(_ result: ProcessResult) throws -> [String] {
        try result.outputLines.compactMap { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let type = event["type"] as? String, ["utterance", "position", "state", "chapter", "ended"].contains(type) else { return nil }
            return line
        }
    }

    @Test func playWithTextEmitsTheAlignedEPUBsEventsAndKeepsTheAlignment() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.book(in: folder)
        // A narration by another voice than the aligner's, slower: a Readium audiobook of an MP3 per chapter.
        let narration = folder.path("lighthouse.audiobook")
        let render = try ProcessRunner.raudio(["render", book, "--voice", "en-gb-x-rp", "--speed", "0.9", "--to", "audiobook", narration,
                                               "--cache", folder.path("speech")], timeout: 600)
        try #require(render.status == 0, "\(render.standardError)")

        let synced = folder.path("synced.epub")
        let align = try ProcessRunner.raudio(["align", book, narration, "--to", "epub3", synced], timeout: 900)
        try #require(align.status == 0, "\(align.standardError)")
        let played = try ProcessRunner.raudio(["play", synced, "--output", "null", "--interval", "500"], timeout: 300)
        try #require(played.status == 0, "\(played.standardError)")
        let expected = try Self.timeline(played)
        #expect(expected.contains { $0.contains("\"type\":\"utterance\"") && $0.contains("The keeper kept the lamp burning") })

        let cache = folder.path("cache")
        let live = try ProcessRunner.raudio(["play", narration, "--text", book, "--output", "null", "--interval", "500"],
                                            environment: ["XDG_CACHE_HOME": cache], timeout: 900)
        try #require(live.status == 0, "\(live.standardError)")
        #expect(try Self.timeline(live) == expected)
        #expect(live.standardError.contains("syncing"))
        // Nothing of the alignment's own events on stdout: only play's.
        #expect(!live.standardOutput.contains("\"unmatchedAudio\"") && !live.standardOutput.contains("\"type\":\"done\""))

        // Kept: the second play aligns nothing and plays the same.
        let kept = try FileManager.default.contentsOfDirectory(atPath: "\(cache)/raudio/aligned").filter { $0.hasSuffix(".epub") }
        #expect(kept.count == 1)
        let again = try ProcessRunner.raudio(["play", narration, "--text", book, "--output", "null", "--interval", "500"],
                                             environment: ["XDG_CACHE_HOME": cache], timeout: 300)
        #expect(again.status == 0)
        #expect(again.standardError.contains("kept in"))
        #expect(!again.standardError.contains("syncing"))
        #expect(try Self.timeline(again) == expected)
    }

    @Test func textIsRefusedWithLastOrTextToSpeech() throws {
        let last = try ProcessRunner.raudio(["play", "--last", "--text", "book.epub"])
        #expect(last.status == 64 && last.standardError.contains("--text"))
        let tts = try ProcessRunner.raudio(["play", "book.audiobook", "--text", "book.epub", "--tts"])
        #expect(tts.status == 64 && tts.standardError.contains("--tts"))
        let missing = try ProcessRunner.raudio(["play", "missing.audiobook", "--text", "missing.epub", "--output", "null"])
        #expect(missing.status == 66 && missing.standardError.contains("missing.epub"))
    }
}
