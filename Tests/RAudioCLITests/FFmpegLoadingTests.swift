// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// FFmpeg's libraries (and the ~100 libraries libavcodec needs) are loaded only when a track needs them.
@Suite struct FFmpegLoadingTests {
    @Test func theBinaryDoesNotLinkFFmpeg() throws {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [ProcessRunner.raudioExecutable.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("libmpg123"), "ldd output: \(result.standardOutput.prefix(200))")
        #expect(!result.standardOutput.contains("libavcodec"))
        #expect(!result.standardOutput.contains("libavformat"))
    }

    /// The libraries the dynamic loader opens while `raudio` runs `arguments` (`LD_DEBUG=files`).
    static func librariesLoaded(_ arguments: [String]) throws -> (status: Int32, libraries: String) {
        let result = try ProcessRunner.raudio(arguments, environment: ["LD_DEBUG": "files"])
        let lines = result.standardError.split(separator: "\n").filter { $0.contains("file=") && $0.contains("[0];  needed by") || $0.contains("dynamically loaded by") }
        return (result.status, lines.joined(separator: "\n"))
    }

    /// An M4B (AAC in MP4) is read by raudio's own MP4 reader: libavcodec decodes, libavformat and the
    /// 40 libraries only it needs stay out; a lone FLAC (libFLAC) loads neither; an Opus file needs
    /// FFmpeg's demuxers and loads them.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anM4BLoadsTheDecodersButNotTheDemuxers() throws {
        let m4b = try Self.librariesLoaded(["play", try Corpus.file("audio/formats/mutagen__ep7.m4b").path, "--output", "null"])
        #expect(m4b.status == 0)
        #expect(m4b.libraries.contains("libavcodec.so"), "\(m4b.libraries.prefix(400))")
        #expect(!m4b.libraries.contains("libavformat.so"))
        let flac = try Self.librariesLoaded(["play", try Corpus.file("audio/formats/mutagen__silence-44-s.flac").path, "--output", "null"])
        #expect(flac.status == 0)
        #expect(!flac.libraries.contains("libavcodec.so") && !flac.libraries.contains("libavformat.so"), "a lone FLAC needs no FFmpeg: \(flac.libraries.prefix(300))")
        let opus = try Self.librariesLoaded(["play", try Corpus.file("audio/formats/atl__opus.opus").path, "--output", "null"])
        #expect(opus.status == 0)
        #expect(opus.libraries.contains("libavformat.so"))
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anM4BStillPlays() throws {
        let result = try ProcessRunner.raudio(["play", try Corpus.file("audio/formats/mutagen__ep7.m4b").path, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"state\":\"ended\""))
    }
}
