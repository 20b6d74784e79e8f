// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// What a new user meets (issue 36): messages that say what to do next.
@Suite struct NewUserMessagesTests {
    /// `raudio play` on an EPUB of text: the error says to read it aloud with `raudio speak`.
    @Test func playingABookOfTextSuggestsSpeak() throws {
        let result = try ProcessRunner.raudio(["play", SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state"], timeout: 60)
        #expect(result.status == 65)
        let error = try #require(result.outputLines.compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }.first { $0["type"]?.stringValue == "error" })
        #expect(error["code"]?.stringValue == "no-audio")
        #expect(error["message"]?.stringValue?.contains("raudio speak \(SpeakCommandTests.sampleEPUB)") == true, "\(error)")
        #expect(result.standardError.contains("read it aloud with raudio speak"))
    }

    /// A JSON array on stdin is a malformed command (docs/events.md), answered as such. Played in real time and
    /// ended by `quit` after it: the book does not end before stdin is read (it did, on a busy machine, at 0.5 s of
    /// audio decoded as fast as it goes).
    @Test func aJSONArrayOnStdinIsAMalformedCommand() throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--no-state"],
                                              input: Data("[1,2]\nquit\n".utf8), timeout: 60)
        let errors = result.outputLines.compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }.filter { $0["type"]?.stringValue == "error" }
        #expect(errors.map { $0["code"]?.stringValue } == ["command-malformed"], "\(errors)")
    }

    /// An Audible `.aa` made from the public format's header (FFmpeg's aa demuxer documents it): the file's
    /// size, the magic 57 90 75 36, a table of contents, then a dictionary of tags; encrypted audio after.
    static func audibleAA(tags: [(String, String)]) throws -> URL {
        func u32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var body: [UInt8] = u32(2) + u32(0) + u32(1) + u32(0) + u32(0) + u32(2) + u32(0) + u32(0) + [UInt8](repeating: 0, count: 24)
        body += u32(tags.count)
        for (key, value) in tags { body += [0] + u32(key.utf8.count) + u32(value.utf8.count) + Array(key.utf8) + Array(value.utf8) }
        body += (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        let file = u32(8 + body.count) + [0x57, 0x90, 0x75, 0x36] + body
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-\(UUID().uuidString).aa")
        try Data(file).write(to: url)
        return url
    }

    /// Issue 36: a real Audible `.aa` was "not a publication raudio can open"; its metadata is shown and
    /// it is refused as protected by Audible DRM (exit 65), as an AAX is.
    @Test func anAudibleAAFileIsRecognizedItsTagsShownAndRefused() throws {
        let book = try Self.audibleAA(tags: [("title", "The Lighthouse Keeper"), ("author", "The raudio project"), ("narrator", "A Voice")])
        defer { try? FileManager.default.removeItem(at: book) }
        let info = try ProcessRunner.raudio(["info", "--human", book.path], timeout: 60)
        #expect(info.status == 0, "\(info.standardError)")
        for line in ["The Lighthouse Keeper", "Author: The raudio project", "Narrator: A Voice", "Protected by: Audible DRM"] {
            #expect(info.outputLines.contains(line), "\(line) not in \(info.outputLines)")
        }
        let play = try ProcessRunner.raudio(["play", book.path, "--output", "null", "--no-state"], timeout: 60)
        #expect(play.status == 65)
        #expect(play.standardError.contains("protected by Audible DRM"), "\(play.standardError)")
    }

    /// Issue 36: a tag warning came without raudio's prefix and named its file twice.
    @Test(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
    func aTagWarningHasRaudiosPrefixAndNamesItsFileOnce() throws {
        let file = try Corpus.file("audio/mp3-edge/mutagen__too-short.mp3")
        let result = try ProcessRunner.raudio(["info", file.path], timeout: 60)
        let warning = try #require(result.standardError.split(separator: "\n").first { $0.contains("its tags could not be read") }, "\(result.standardError)")
        #expect(warning.hasPrefix("raudio: warning: "), "\(warning)")
        #expect(warning.components(separatedBy: "mutagen__too-short.mp3").count == 2, "the file is named once: \(warning)")
    }

    /// Issue 36: an MP3 with junk before its first frame was refused ("not a publication raudio can open")
    /// though libmpg123 and FFmpeg find its frames; it plays to its end now, as long as the file without junk.
    @Test(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
    func anMP3WithJunkBeforeItsFirstFramePlays() throws {
        let original = try Corpus.file("audio/mp3-edge/tinytag__vbr_xing_header.mp3")
        var generator = SplitMix64(seed: 36)
        // 3000 bytes no frame sync can start in (no 0xFF), then the MP3 as it was.
        let junk = (0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next() % 255) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-junk-\(UUID().uuidString).mp3")
        try (Data(junk) + Data(contentsOf: original)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func end(of path: String) throws -> Double? {
            let result = try ProcessRunner.run(ProcessRunner.raudioExecutable, ["play", path, "--output", "null"],
                                               environment: ["RAUDIO_NO_STATE": "1"], timeout: 60)
            #expect(result.status == 0, "\(path): \(result.standardError)")
            let ended = try result.outputLines.map(PlayCommandTests.object).last { $0["type"] == "state" && $0["state"] == "ended" }
            let fragment = ended?["locator"]?.objectValue?["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue
            return fragment.flatMap(MediaFragment.init(parsing:))?.begin
        }
        let played = try #require(try end(of: file.path))
        let whole = try #require(try end(of: original.path))
        #expect(abs(played - whole) < 0.1, "with junk \(played) s, without \(whole) s")
    }

    /// Issue 36: `raudio text` on an EPUB whose chapter is an entity bomb said its warning twice (on opening,
    /// then on reading); once now, and the next chapter is still read.
    @Test func aMalformedChapterIsWarnedAboutOnce() throws {
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE html [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>"
            + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>a</title></head><body><p>&b;</p></body></html>"
        let book = try TestBooks.epub(pages: [("a.xhtml", "application/xhtml+xml", bomb),
                                              ("b.xhtml", "application/xhtml+xml", TestBooks.xhtml(["The second chapter is read."]))], language: "en")
        defer { try? FileManager.default.removeItem(at: book) }
        let result = try ProcessRunner.raudio(["text", book.path], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("a.xhtml") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(result.outputLines.contains { $0.contains("The second chapter is read.") })
    }

    /// Issue 36, item 9: `info --human` says whether the book has a cover.
    @Test(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
    func infoSaysWhetherThereIsACover() throws {
        let with = try ProcessRunner.raudio(["info", "--human", try Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub").path], timeout: 60)
        #expect(with.outputLines.contains("Cover: EPUB/images/cover.png (image/png)"), "\(with.outputLines)")
        let without = try ProcessRunner.raudio(["info", "--human", PlayCommandTests.sampleBook], timeout: 60)
        #expect(without.outputLines.contains("Cover: none"), "\(without.outputLines)")
    }

    /// Issue 36, item 9: `raudio play --last` plays the book played last (not the one spoken last), where it was left.
    @Test func playLastResumesTheBookPlayedLast() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-last-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["RAUDIO_STATE_DIR": state.path]
        let none = try ProcessRunner.raudio(["play", "--last", "--output", "null"], environment: environment, timeout: 60)
        #expect(none.status == 66 && none.standardError.contains("no book has been played yet"), "\(none.standardError)")
        // An empty history says so, not a table of nothing.
        let empty = try ProcessRunner.raudio(["history", "--human"], environment: environment)
        #expect(empty.status == 0 && empty.standardOutput.hasPrefix("No books yet"), "\(empty.standardOutput)")
        #expect(try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "2"], environment: environment).status == 0)
        #expect(try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--duration", "1"], environment: environment).status == 0)
        let last = try ProcessRunner.raudio(["play", "--last", "--output", "null", "--duration", "0.5"], environment: environment, timeout: 60)
        #expect(last.status == 0, "\(last.standardError)")
        #expect(last.outputLines.first?.contains("The Last Lamp of Gull Rock") == true)
        #expect(last.standardError.contains("resuming where the book was left"), "\(last.standardError)")
        #expect(try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--last"], environment: environment).status == 64)
    }
}
