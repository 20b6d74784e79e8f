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

    /// libcurl (and the ~25 libraries it needs) is not linked either: loaded by the first remote fetch
    /// only, so playing a local book never loads it (the remote tests show that it loads when needed).
    @Test func libcurlIsLoadedOnlyWhenNeeded() throws {
        let ldd = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [ProcessRunner.raudioExecutable.path])
        #expect(ldd.status == 0)
        #expect(!ldd.standardOutput.contains("libcurl"), "ldd output: \(ldd.standardOutput.prefix(400))")
        #expect(!ldd.standardOutput.contains("libcrypto"))
        let local = try Self.librariesLoaded(["play", Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook").path,
                                              "--output", "null", "--duration", "0.5"])
        #expect(local.status == 0)
        #expect(!local.libraries.contains("libcurl"), "a local book loads no libcurl: \(local.libraries.prefix(400))")
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

    /// A LAME MP3 without any tag is described from its LAME header (exact length) and loads no FFmpeg;
    /// the same audio with an ID3v2 tag goes to FFmpeg's demuxers for its tags, and its title shows.
    @Test func anUntaggedMP3LoadsNoFFmpegAndATaggedOneDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-mp3-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("tone.wav").path
        let plain = directory.appendingPathComponent("plain.mp3").path
        let tagged = directory.appendingPathComponent("tagged.mp3").path
        let decoded = directory.appendingPathComponent("decoded.wav").path
        func tool(_ name: String, _ arguments: [String]) throws {
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/\(name)"), arguments)
            try #require(result.status == 0, "\(name) failed: \(result.standardError)")
        }
        try tool("sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "3.3", "sine", "440", "vol", "0.5"])
        try tool("lame", ["--quiet", "-b", "96", wav, plain])
        try tool("lame", ["--quiet", "-b", "96", "--tt", "Tagged Tone", "--id3v2-only", wav, tagged])
        // The exact length: what mpg123 decodes (gapless, as raudio).
        try tool("mpg123", ["-q", "-w", decoded, plain])
        let samples = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/soxi"), ["-s", decoded])
        let rate = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/soxi"), ["-r", decoded])  // lame resamples to 32 kHz here
        let exactSeconds = try #require(Double(samples.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
            / (try #require(Double(rate.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))))

        let plainRun = try Self.librariesLoaded(["play", plain, "--output", "null"])
        #expect(plainRun.status == 0)
        #expect(!plainRun.libraries.contains("libavcodec.so") && !plainRun.libraries.contains("libavformat.so"), "an untagged MP3 needs no FFmpeg: \(plainRun.libraries.prefix(300))")
        let info = try ProcessRunner.raudio(["info", plain])
        #expect(info.status == 0, "\(info.standardError)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        let item = try #require((manifest["readingOrder"] as? [[String: Any]])?.first)
        let duration = try #require(item["duration"] as? Double)
        #expect(abs(duration - exactSeconds) < 0.0005, "duration \(duration) s vs \(exactSeconds) s decoded")

        let taggedRun = try Self.librariesLoaded(["play", tagged, "--output", "null"])
        #expect(taggedRun.status == 0)
        #expect(taggedRun.libraries.contains("libavformat.so"), "a tagged MP3's tags are read by FFmpeg")
        let taggedInfo = try ProcessRunner.raudio(["info", tagged])
        #expect(taggedInfo.standardOutput.contains("Tagged Tone"))
    }

    /// A directory holding, under each of libavcodec's sonames, a link to `target`, or a file that is not
    /// a shared library when `target` is nil.
    static func replacedLibavcodec(with target: String?) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-libavcodec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for soname in ["libavcodec.so.59", "libavcodec.so.60", "libavcodec.so"] {
            let path = directory.appendingPathComponent(soname)
            if let target {
                try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target)
            } else {
                try Data("not an ELF file\n".utf8).write(to: path)
            }
        }
        return directory
    }

    /// A libavcodec without the functions raudio calls (libz under its name: it loads, and has none of
    /// them) is reported as a missing libavcodec is, the function and the Debian package named, instead
    /// of ending the process in the middle of playback.
    @Test func anFFmpegLackingAFunctionIsReportedAsAMissingOneIs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-ffmpeg-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let m4a = directory.appendingPathComponent("tone.m4a").path
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", m4a])
        try #require(made.status == 0, "ffmpeg failed: \(made.standardError)")
        let libz = try #require(["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/libz.so.1"].first { FileManager.default.fileExists(atPath: $0) })
        let broken = try Self.replacedLibavcodec(with: nil)
        let lacking = try Self.replacedLibavcodec(with: libz)
        defer { for replaced in [broken, lacking] { try? FileManager.default.removeItem(at: replaced) } }

        let missing = try ProcessRunner.raudio(["play", m4a, "--output", "null"], environment: ["LD_LIBRARY_PATH": broken.path])
        let without = try ProcessRunner.raudio(["play", m4a, "--output", "null"], environment: ["LD_LIBRARY_PATH": lacking.path])
        #expect(missing.status != 0 && missing.status < 128, "exit \(missing.status): \(missing.standardError)")
        #expect(without.status == missing.status, "exit \(without.status) (missing library: \(missing.status)): \(without.standardError.suffix(1000))")
        #expect(without.standardError.contains("has no function avcodec_alloc_context3"), "\(without.standardError.suffix(1000))")
        #expect(without.standardError.contains("libavcodec59"), "the message names the Debian package: \(without.standardError.suffix(1000))")
        // The track's warning, as for a missing library; then the book has nothing to play.
        for run in [missing, without] {
            #expect(run.outputLines.contains { $0.contains("\"code\":\"track-undecodable\"") && $0.contains("libavcodec") }, "\(run.standardOutput)")
            #expect(run.outputLines.contains { $0.contains("\"code\":\"no-playable-track\"") }, "\(run.standardOutput)")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anM4BStillPlays() throws {
        let result = try ProcessRunner.raudio(["play", try Corpus.file("audio/formats/mutagen__ep7.m4b").path, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"state\":\"ended\""))
    }
}
