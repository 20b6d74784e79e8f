// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// The FFmpeg decoder against FFmpeg's own command line: the same samples, sample for sample, from the
/// corpus's real files and from files `ffmpeg` makes here; exact seeks; clear refusals.
@Suite("FFmpeg decoder")
struct FFmpegDecoderTests {
    static let corpusFiles = [
        "antennapod__auphonic.m4a", "antennapod__nero-chapters.m4a", "mutagen__ep7.m4b", "mutagen__alac.m4a",
        "antennapod__auphonic.opus", "atl__opus.opus", "mutagen__silence-44-s.flac",
    ].map { "audio/formats/\($0)" } + ["audio/opus/w3c-epub-tests__pub-cmt-opus__001.opus"]

    /// What `ffmpeg -i FILE -f f32le -` gives, and the stream's rate and channels from `ffprobe`.
    static func ffmpegDecode(_ url: URL) throws -> DecodedAudio? {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let raw = directory.appendingPathComponent("reference.f32")
        guard try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:a:0", "-f", "f32le", raw.path]) == 0 else { return nil }
        let data = try Data(contentsOf: raw)
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=sample_rate,channels", "-of", "csv=p=0", url.path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        let fields = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard fields.count == 2 else { return nil }
        let samples = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
        return DecodedAudio(format: PCMFormat(sampleRate: fields[0], channelCount: fields[1]), samples: samples, error: nil)
    }

    /// The audio stream's length as its container states it (`ffprobe` `duration`), in frames at `rate`.
    static func statedLength(_ url: URL, rate: Int) throws -> Int? {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", url.path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)).map { Int(($0 * Double(rate)).rounded()) }
    }

    /// The decoder the factory picks gives FFmpeg's samples. `MP4AudioDecoder` (AAC and ALAC in MP4)
    /// also drops the padding after the edit's end, which FFmpeg 5.1's command line leaves in: its
    /// length is the container's, and its samples are the start of FFmpeg's.
    static func assertSameAsFFmpeg(_ url: URL, href: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try #require(try ffmpegDecode(url), "ffmpeg could not decode \(href)", sourceLocation: sourceLocation)
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url, href: href), mediaType: nil)
        #expect(decoder is FFmpegDecoder || decoder is MP4AudioDecoder || decoder is FLACDecoder, sourceLocation: sourceLocation)
        var stated: Int?
        if decoder is MP4AudioDecoder {
            guard let length = try statedLength(url, rate: reference.format.sampleRate) else {
                Issue.record("ffprobe states no length for \(href)", sourceLocation: sourceLocation)
                return
            }
            stated = length
        }
        #expect(decoder.frameCount == stated.map(Int64.init) ?? decoder.frameCount, "\(href): the stated length before decoding", sourceLocation: sourceLocation)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        #expect(decoded.error == nil, "\(href): \(decoded.error.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
        #expect(decoded.format == reference.format, "\(href)", sourceLocation: sourceLocation)
        let expectedLength = stated ?? reference.frameCount
        #expect(decoded.frameCount == expectedLength, "\(href): \(decoded.frameCount) frames, expected \(expectedLength) (ffmpeg \(reference.frameCount))", sourceLocation: sourceLocation)
        #expect(reference.frameCount >= expectedLength, "\(href): ffmpeg decodes fewer frames than the container states", sourceLocation: sourceLocation)
        let largest = zip(decoded.samples, reference.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(largest == 0, "\(href): samples differ from ffmpeg's by up to \(largest)", sourceLocation: sourceLocation)
        #expect(decoder.frameCount == Int64(decoded.frameCount), "\(href): frameCount once decoded", sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: corpusFiles)
    func corpusFilesDecodeAsFFmpegDoes(path: String) throws {
        try Self.assertSameAsFFmpeg(try Corpus.file(path), href: path)
    }

    /// Files made here by ffmpeg from a test signal: every codec of the issue, in each container.
    /// FFmpeg's AAC encoder is told not to use perceptual noise substitution: PNS bands are filled with
    /// noise from a generator the decoder keeps running, so after a seek they differ (by design) from a
    /// decode from the start. Encoders of real audiobooks (iTunes, fdk-aac) do not use it.
    static let made: [(name: String, arguments: [String])] = [
        ("aac-lc.m4a", ["-c:a", "aac", "-aac_pns", "0", "-b:a", "96k"]),
        ("aac-lc.m4b", ["-c:a", "aac", "-aac_pns", "0", "-b:a", "64k", "-f", "ipod"]),
        ("aac.aac", ["-c:a", "aac", "-aac_pns", "0", "-b:a", "96k", "-f", "adts"]),
        ("alac.m4a", ["-c:a", "alac"]),
        ("opus.opus", ["-c:a", "libopus", "-b:a", "48k"]),
        ("opus-in-mp4.m4a", ["-c:a", "libopus", "-b:a", "48k", "-strict", "-2", "-f", "mp4"]),
        ("flac.flac", ["-c:a", "flac"]),
        ("flac24.flac", ["-c:a", "flac", "-sample_fmt", "s32"]),
        ("flac-in-mp4.m4a", ["-c:a", "flac", "-strict", "-2", "-f", "mp4"]),
        ("pcm.wav", ["-c:a", "pcm_s16le"]),
        ("pcm24.wav", ["-c:a", "pcm_s24le"]),
    ]

    /// A 3.3 s test signal (a chirp-like sum of tones, stereo) encoded by ffmpeg as `name`.
    static func make(_ name: String, _ arguments: [String], in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        let source = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3.3", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100:duration=3.3",
                      "-filter_complex", "[0][1]amerge=inputs=2[a]", "-map", "[a]"]
        let status = try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + source + arguments + [url.path])
        try #require(status == 0, "ffmpeg could not make \(name) with \(arguments)")
        return url
    }

    @Test func filesMadeByFFmpegDecodeAsFFmpegDoes() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        for (name, arguments) in Self.made {
            try Self.assertSameAsFFmpeg(try Self.make(name, arguments, in: directory), href: name)
        }
    }

    /// Both decoders of an MP4 file (raudio's reader and FFmpeg's demuxer, its fallback) seek exactly.
    static func decoders(for resource: TestFileResource) throws -> [any AudioDecoder] {
        let chosen = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
        return chosen is FFmpegDecoder ? [chosen] : [chosen, try FFmpegDecoder(resource: resource)]
    }

    static func assertSeeksAreExact(_ resource: TestFileResource, seed: UInt64, tolerance: Float) throws {
        for decoder in try decoders(for: resource) {
            let again = try #require(try decoders(for: resource).first { type(of: $0) == type(of: decoder) })
            let straight = DecoderTestSupport.decodeAll(again)
            try #require(straight.error == nil)
            try RAudioEngineTests.assertSeeksAreExact(decoder: decoder, reference: straight, seed: seed, tolerance: tolerance)
        }
    }

    @Test(arguments: made.map(\.name))
    func seeksAreSampleExact(name: String) throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        for (name, arguments) in Self.made.filter({ $0.name == name }) {
            let url = try Self.make(name, arguments, in: directory)
            // Opus's decoder state converges after its 80 ms pre-roll, to within -90 dB, not bit for bit.
            try Self.assertSeeksAreExact(TestFileResource(url: url, href: name), seed: 7, tolerance: name.hasPrefix("opus") ? 1e-4 : 0)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: corpusFiles)
    func corpusSeeksAreSampleExact(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        try Self.assertSeeksAreExact(resource, seed: 11, tolerance: path.hasSuffix(".opus") ? 1e-4 : 0)
    }

    @Test func seekingPastTheEndGivesNothingAndTheDecodedLength() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let url = try Self.make("end.m4a", ["-c:a", "aac"], in: directory)
        let decoder = try FFmpegDecoder(resource: TestFileResource(url: url, href: "end.m4a"))
        try decoder.seek(toFrame: 100_000_000)
        #expect(try DecoderTestSupport.readFrames(decoder, count: 16).isEmpty)
        let end = try #require(decoder.frameCount)
        #expect(decoder.currentFrame == end)
        #expect(Int(end) == (try #require(try Self.ffmpegDecode(url))).frameCount)
        try decoder.seek(toFrame: 0)
        #expect(try DecoderTestSupport.readFrames(decoder, count: 16).count == 16 * 2)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func audibleAndDamagedFilesAreRefusedClearly() throws {
        let refusals: [(path: String, code: AudioDecoderError.Code, says: String)] = [
            ("audio/formats/bad__tlsharp__second.aax", .trackUnsupported, "Audible DRM"),
            ("audio/formats/bad__tinytag__mp4_invalid_size_zero.m4a", .corrupt, "FFmpeg could not"),
            ("audio/formats/bad__taglib__infloop.m4a", .corrupt, "FFmpeg could not"),
            ("audio/formats/bad__mutagen__ooming-header.flac", .corrupt, "libFLAC could not read its metadata blocks"),
        ]
        for refusal in refusals {
            let resource = try DecoderTestSupport.resource(refusal.path)
            let error = #expect(throws: AudioDecoderError.self, "\(refusal.path)") {
                let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
                let decoded = DecoderTestSupport.decodeAll(decoder)
                if let error = decoded.error { throw error }
                if decoded.frameCount == 0 { throw AudioDecoderError(.corrupt, href: refusal.path, message: "no audio decoded") }
            }
            #expect(error?.code == refusal.code, "\(refusal.path): \(error.map(String.init(describing:)) ?? "")")
            #expect(error?.message.contains(refusal.says) == true, "\(refusal.path): \(error?.message ?? "")")
            #expect(error?.href == refusal.path)
        }
    }

    @Test func aTrackInsideAZIPDecodesInPlace() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let track = try Self.make("track.m4a", ["-c:a", "aac"], in: directory)
        let archive = directory.appendingPathComponent("book.zip")
        try #require(try DecoderTestSupport.run("zip", ["-j", "-0", "-q", archive.path, track.path]) == 0)
        let container = try ZIPContainer(url: archive)
        let resource = try container.resource(at: "track.m4a")
        let inZIP = DecoderTestSupport.decodeAll(try FFmpegDecoder(resource: resource))
        let onDisk = DecoderTestSupport.decodeAll(try FFmpegDecoder(resource: TestFileResource(url: track, href: "track.m4a")))
        #expect(inZIP.error == nil)
        #expect(inZIP.samples == onDisk.samples)
        #expect(inZIP.frameCount > 44100 * 3)
    }
}

/// Damaged and unusual files: a clear error naming the file, what decoded before the damage, no crash.
@Suite("FFmpeg decoder on bad input")
struct FFmpegBadInputTests {
    @Test func truncatedNoAudioFragmentedAndCorruptFiles() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let whole = try FFmpegDecoderTests.make("whole.m4a", ["-c:a", "aac"], in: directory)
        let data = try Data(contentsOf: whole)

        // moov first (faststart), mdat cut in half: what is there decodes, then a corrupt-track error.
        let faststart = try FFmpegDecoderTests.make("fast.m4a", ["-c:a", "aac", "-movflags", "+faststart"], in: directory)
        let fastData = try Data(contentsOf: faststart)
        let cut = directory.appendingPathComponent("cut.m4a")
        try fastData.prefix(fastData.count / 2).write(to: cut)
        let partial = DecoderTestSupport.decodeAll(try FFmpegDecoder(resource: TestFileResource(url: cut, href: "cut.m4a")))
        #expect(partial.frameCount > 44100 / 2, "\(partial.frameCount) frames before the cut")
        #expect(partial.frameCount < 44100 * 3)
        if let error = partial.error { #expect(error.href == "cut.m4a") }

        // moov last, file cut before it: nothing to read, said so.
        let noMoov = directory.appendingPathComponent("nomoov.m4a")
        try data.prefix(data.count / 2).write(to: noMoov)
        let refusal = #expect(throws: AudioDecoderError.self) { try FFmpegDecoder(resource: TestFileResource(url: noMoov, href: "nomoov.m4a")) }
        #expect(refusal?.code == .corrupt)
        #expect(refusal?.href == "nomoov.m4a")
        #expect(refusal?.message.contains("FFmpeg could not") == true, "\(refusal?.message ?? "")")

        // Fragmented MP4 (as streaming encoders write it) decodes as ffmpeg does.
        let fragmented = try FFmpegDecoderTests.make("frag.m4a", ["-c:a", "aac", "-aac_pns", "0", "-movflags", "frag_keyframe+empty_moov"], in: directory)
        try FFmpegDecoderTests.assertSameAsFFmpeg(fragmented, href: "frag.m4a")

        // Video and no audio.
        let video = directory.appendingPathComponent("video.mp4")
        try #require(try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5", "-c:v", "mpeg4", video.path]) == 0)
        let noAudio = #expect(throws: AudioDecoderError.self) { try FFmpegDecoder(resource: TestFileResource(url: video, href: "video.mp4")) }
        #expect(noAudio?.message == "it holds no audio stream")

        // Opus with bytes overwritten in its middle pages: no crash, and most of it decodes.
        let opus = try FFmpegDecoderTests.make("good.opus", ["-c:a", "libopus"], in: directory)
        var damaged = try Data(contentsOf: opus)
        let middle = damaged.count / 2
        for offset in middle..<min(damaged.count, middle + 2000) { damaged[offset] ^= 0x5A }
        let broken = directory.appendingPathComponent("broken.opus")
        try damaged.write(to: broken)
        let decoded = DecoderTestSupport.decodeAll(try FFmpegDecoder(resource: TestFileResource(url: broken, href: "broken.opus")))
        #expect(decoded.frameCount > 48000, "\(decoded.frameCount) frames")
    }

    /// A header claiming billions of entries (the corpus's allocation bomb) is refused quickly and
    /// without growing memory.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func allocationBombsAreRefusedWithoutAllocating() throws {
        let before = DecoderTestSupport.residentMegabytes()
        for path in ["audio/formats/bad__mutagen__ooming-header.flac", "audio/formats/bad__taglib__infloop.m4a"] {
            let resource = try DecoderTestSupport.resource(path)
            #expect(throws: AudioDecoderError.self) { try FFmpegDecoder(resource: resource) }
            _ = try? FFmpegAudioFileInspector().inspect(resource)
        }
        #expect(DecoderTestSupport.residentMegabytes() - before < 64)
    }
}
