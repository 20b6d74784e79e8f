// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

private let format = "readium/swift-toolkit/SharedTests/Fixtures/Format"
private let streamer = "readium/swift-toolkit/StreamerTests/Fixtures"

/// End-to-end tests of `raudio info`, running the built binary.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct InfoCommandTests {
    static let audiobooks = [
        "\(format)/audiobook-package.unknown", "\(format)/audiobook-lcp.unknown", "\(format)/audiobook.json",
        "\(format)/audiobook-wrongtype.json", "\(format)/webpub.json", "\(format)/webpub-package.unknown",
        "\(format)/zab.unknown", "\(streamer)/audiotest.zab", "\(streamer)/audiotest.lcpa", "\(streamer)/audiotest",
        "audio/mp3-speech/auphonic_chapters_demo.mp3", "audio/ogg-speech/auphonic_chapters_demo.ogg",
        "audio/formats/antennapod__auphonic.m4a", "audio/formats/mutagen__ep7.m4b", "audio/formats/antennapod__auphonic.opus",
        "audio/formats/mutagen__silence-44-s.flac", "audio/formats/mutagen__alac.m4a", "audio/formats/mm__chapters.mp3",
        // A W3C Lightweight Packaging Format package (a W3C manifest of HTML, not an audiobook): it opens.
        "\(format)/lpf.unknown",
    ]

    @Test(.enabled(if: ReadiumValidator.isAvailable, ReadiumValidator.skipMessage), arguments: audiobooks)
    func infoOfEveryCorpusAudiobookValidatesAsAReadiumPublication(path: String) throws {
        let result = try ProcessRunner.raudio(["info", try Corpus.file(path).path])
        #expect(result.status == 0, "\(result.standardError)")
        try ReadiumValidator.validate(.publication, result.standardOutput)
    }

    @Test(arguments: [
        ("/nonexistent/book.audiobook", Int32(66), "does not exist"),
        ("epub/epubcheck-edge/ocf-zip-unreadable-empty-fatal.epub", 65, "empty"),
        ("epub/epubcheck-edge/ocf-zip-unreadable-no-end-header-fatal.epub", 65, "not a ZIP archive"),
        ("epub/epubcheck-edge/ocf-zip-unreadable-image-with-epub-extension-fatal.epub", 65, "not a publication"),
        ("\(streamer)/flatland.json", 65, "line 33, column 3: trailing comma"),
        ("\(format)/lcpl.unknown", 65, "LCP"),
        ("audio/mp3-edge/tinytag__incomplete.mp3", 65, "not a publication"),
    ] as [(String, Int32, String)])
    func badInputsExitWithTheDocumentedCodeAndNameTheFile(path: String, status: Int32, message: String) throws {
        let resolved = path.hasPrefix("/") ? path : try Corpus.file(path).path
        let result = try ProcessRunner.raudio(["info", resolved])
        #expect(result.status == status)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(resolved))
        #expect(result.standardError.contains(message))
    }

    @Test func lcpPackagesShowMetadataAndSayTheyAreProtected() throws {
        let result = try ProcessRunner.raudio(["info", try Corpus.file("\(streamer)/audiotest.lcpa").path])
        #expect(result.status == 0)
        #expect(result.standardError.contains("protected by LCP"))
        #expect(result.standardOutput.contains("\"readingOrder\""))
    }

    @Test func anAudibleFileShowsItsDRMAndPlayRefusesIt() throws {
        let path = try Corpus.file("audio/formats/bad__tlsharp__second.aax").path
        let info = try ProcessRunner.raudio(["info", "--human", path])
        #expect(info.status == 0)
        #expect(info.standardOutput.contains("Protected by: Audible DRM"))
        let play = try ProcessRunner.raudio(["play", path, "--output", "null"])
        #expect(play.status == 65)
        #expect(play.standardError.contains("\(path): is protected by Audible DRM"))
        #expect(play.standardOutput.contains("\"code\":\"drm-protected\""))
    }

    @Test func coverIsWrittenOutAndItsAbsenceIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cover = directory.appendingPathComponent("cover.png")
        // Its `covr` item is a PNG.
        let result = try ProcessRunner.raudio(["info", "--cover", cover.path, try Corpus.file("audio/formats/antennapod__auphonic.m4a").path])
        #expect(result.status == 0)
        #expect(try Data(contentsOf: cover).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let none = try ProcessRunner.raudio(["info", "--cover", cover.path, try Corpus.file("audio/formats/mutagen__ep7.m4b").path])
        #expect(none.status == 65)
        #expect(none.standardError.contains("has no cover picture"))
    }

    @Test func humanSummaryListsTitleAndTracks() throws {
        let result = try ProcessRunner.raudio(["info", "--human", try Corpus.file("\(format)/audiobook.json").path])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Flatland"))
        #expect(result.standardOutput.contains("Reading order (9)"))
        #expect(result.standardOutput.contains("Author: Edwin Abbott Abbott"))
    }

    /// An EPUB's spine items have no titles of their own: each is named by the first toc entry in its file.
    @Test func humanSummaryNamesAnEPUBsFilesByTheirTocTitles() throws {
        let result = try ProcessRunner.raudio(["info", "--human", RenderCommandTests.sample])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("   1. Chapter 1. The Storm  [EPUB/chapter-1.xhtml]\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("   2. Chapter 2. Le matin  [EPUB/chapter-2.xhtml]\n"), "\(result.standardOutput)")
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try ProcessRunner.raudio(["info", "--bogus", "x"])
        #expect(result.status == 64)
    }

    @Test func closedStdoutDoesNotCrash() throws {
        let path = try Corpus.file("\(format)/audiobook.json").path
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(ProcessRunner.raudioExecutable.path)' info '\(path)' | head -c 1 >/dev/null; exit ${PIPESTATUS:-0}"]
        )
        #expect(!result.endedBySignal)
        #expect(!result.standardError.contains("Fatal error"))
    }
}
