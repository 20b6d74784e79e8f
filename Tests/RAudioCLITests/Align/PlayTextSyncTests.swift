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

    /// The size of every regular file under `path`.
    static func bytes(under path: String) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var total = 0
        while let name = enumerator?.nextObject() as? String {
            total += (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int) ?? 0
        }
        return total
    }

    /// The entries of a ZIP.
    static func entries(_ zip: String) throws -> [String] {
        let listed = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", zip])
        return listed.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func linkAudioReferencesTheNarrationBesideTheEPUBAndTheCacheHoldsNoCopy() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.book(in: folder)
        // The narration: one M4B in a folder of its own, the synced EPUB written in another.
        try FileManager.default.createDirectory(atPath: folder.path("audio"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let narration = folder.path("audio/light house.m4b")
        let render = try ProcessRunner.raudio(["render", book, "--voice", "en-gb-x-rp", "--speed", "0.9", "--to", "m4b", narration,
                                               "--cache", folder.path("speech")], timeout: 600)
        try #require(render.status == 0, "\(render.standardError)")
        let audioBytes = try #require(try FileManager.default.attributesOfItem(atPath: narration)[.size] as? Int)

        let synced = folder.path("out/synced.epub")
        let align = try ProcessRunner.raudio(["align", book, narration, "--to", "epub3", synced, "--link-audio"], timeout: 900)
        try #require(align.status == 0, "\(align.standardError)")
        // No audio in the EPUB: its sidecar names the M4B by a path relative to the EPUB's folder.
        let entries = try Self.entries(synced)
        #expect(entries.contains { $0.hasSuffix(".smil") })
        #expect(!entries.contains { $0.hasSuffix(".m4b") }, "\(entries)")
        let sidecar = try String(contentsOfFile: synced + ".audio.json", encoding: .utf8)
        #expect(sidecar.contains("\"file\": \"../audio/light%20house.m4b\""), "\(sidecar)")
        #expect(sidecar.contains("\"href\": \"EPUB/raudio/narration-1.m4b\""), "\(sidecar)")
        let played = try ProcessRunner.raudio(["play", synced, "--output", "null", "--interval", "500"], timeout: 300)
        try #require(played.status == 0, "\(played.standardError)")
        #expect(!played.standardOutput.contains("\"type\":\"warning\""), "\(played.standardOutput)")
        let expected = try Self.timeline(played)
        #expect(expected.contains { $0.contains("\"type\":\"utterance\"") && $0.contains("The keeper kept the lamp burning") })

        // play --text links too: the cache holds the EPUB and its sidecar, not the audiobook.
        let cache = folder.path("cache")
        let live = try ProcessRunner.raudio(["play", narration, "--text", book, "--output", "null", "--interval", "500"],
                                            environment: ["XDG_CACHE_HOME": cache], timeout: 900)
        try #require(live.status == 0, "\(live.standardError)")
        #expect(try Self.timeline(live) == expected)
        let kept = try FileManager.default.contentsOfDirectory(atPath: "\(cache)/raudio/aligned").sorted()
        #expect(kept.count == 2 && kept[0].hasSuffix(".epub") && kept[1].hasSuffix(".epub.audio.json"), "\(kept)")
        #expect(Self.bytes(under: cache) < audioBytes / 2, "the cache holds \(Self.bytes(under: cache)) bytes, the audiobook is \(audioBytes)")

        // The audio moved away: a clear error naming it and the sidecar, not a silent book.
        try FileManager.default.moveItem(atPath: narration, toPath: folder.path("audio/moved.m4b"))
        let moved = try ProcessRunner.raudio(["play", synced, "--output", "null"], timeout: 300)
        #expect(moved.status == 66, "\(moved.standardError)")
        #expect(moved.standardError.contains("light house.m4b") && moved.standardError.contains("synced.epub.audio.json"), "\(moved.standardError)")

        // A sidecar that names something other than audio (a key, a document) is refused, not served as the narration.
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: folder.path("secret")))
        try Data(sidecar.replacingOccurrences(of: "../audio/light%20house.m4b", with: "../secret").utf8)
            .write(to: URL(fileURLWithPath: synced + ".audio.json"))
        let secret = try ProcessRunner.raudio(["play", synced, "--output", "null"], timeout: 300)
        #expect(secret.status == 65, "\(secret.standardError)")
        #expect(secret.standardError.contains("is not an audio file"), "\(secret.standardError)")
    }

    @Test func linkAudioRefusesTracksInsideAPackage() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.book(in: folder)
        let narration = folder.path("lighthouse.audiobook")
        let render = try ProcessRunner.raudio(["render", book, "--to", "audiobook", narration, "--cache", folder.path("speech")], timeout: 600)
        try #require(render.status == 0, "\(render.standardError)")
        let align = try ProcessRunner.raudio(["align", book, narration, "--to", "epub3", folder.path("synced.epub"), "--link-audio"], timeout: 300)
        #expect(align.status == 64, "\(align.standardError)")
        #expect(align.standardError.contains("--link-audio") && align.standardError.contains("not a file of its own"), "\(align.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("synced.epub")))
        let noOutput = try ProcessRunner.raudio(["align", book, narration, "--alignment", folder.path("a.json"), "--link-audio"])
        #expect(noOutput.status == 64 && noOutput.standardError.contains("--link-audio"))
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
