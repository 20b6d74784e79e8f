// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioEngine

/// raudio's own MP4 reader: which files it takes and which it leaves to FFmpeg, gapless lengths, a
/// file that breaks off, and descriptions equal to FFmpeg's. (Samples and seeks against FFmpeg are
/// checked with the other formats in `FFmpegDecoderTests`.)
@Suite("MP4 reader")
struct MP4AudioDecoderTests {
    @Test func aacAndALACInPlainMP4AreReadByRaudioTheRestByFFmpeg() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let ours = ["aac-lc.m4a", "aac-lc.m4b", "alac.m4a"]
        for (name, arguments) in FFmpegDecoderTests.made where name.hasSuffix(".m4a") || name.hasSuffix(".m4b") {
            let url = try FFmpegDecoderTests.make(name, arguments, in: directory)
            let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url, href: name), mediaType: nil)
            #expect((decoder is MP4AudioDecoder) == ours.contains(name), "\(name): \(type(of: decoder))")
        }
        // Fragmented, as streaming encoders write it: FFmpeg's demuxer.
        let fragmented = try FFmpegDecoderTests.make("fragmented.m4a", ["-c:a", "aac", "-movflags", "frag_keyframe+empty_moov"], in: directory)
        #expect(try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: fragmented, href: "f.m4a"), mediaType: nil) is FFmpegDecoder)
    }

    /// FFmpeg 5.1's command line leaves the encoder's padding at the end; the edit list says where the
    /// audio ends, and the reader stops there, so tracks join without a gap.
    @Test func anAACFileLastsExactlyItsEdit() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let url = directory.appendingPathComponent("one.m4a")
        try #require(try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1.01",
                                                          "-c:a", "aac", "-aac_pns", "0", url.path]) == 0)
        let decoder = try MP4AudioDecoder(resource: TestFileResource(url: url, href: "one.m4a"))
        #expect(decoder.frameCount == 44541)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        #expect(decoded.error == nil)
        #expect(decoded.frameCount == 44541)
        let ffmpeg = try #require(try FFmpegDecoderTests.ffmpegDecode(url))
        #expect(ffmpeg.frameCount == 45056, "FFmpeg's command line keeps the padding (44 whole AAC frames)")
        #expect(zip(decoded.samples, ffmpeg.samples).allSatisfy { $0 == $1 })
    }

    /// A file cut short inside its audio (moov first, as `-movflags faststart` writes): what is there
    /// plays, then a clear error naming the file.
    @Test func aFileThatBreaksOffPlaysWhatItHasThenFails() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let whole = try FFmpegDecoderTests.make("whole.m4a", ["-c:a", "aac", "-aac_pns", "0", "-movflags", "faststart"], in: directory)
        let data = try Data(contentsOf: whole)
        let cut = directory.appendingPathComponent("cut.m4a")
        try data.prefix(data.count * 2 / 3).write(to: cut)
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: cut, href: "cut.m4a"), mediaType: nil)
        #expect(decoder is MP4AudioDecoder)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        let error = try #require(decoded.error)
        #expect(error.code == .corrupt && error.href == "cut.m4a")
        #expect(error.message.contains("breaks off"), "\(error.message)")
        #expect(decoded.frameCount > 44100 && decoded.frameCount < Int(3.3 * 44100))
        let straight = DecoderTestSupport.decodeAll(try MP4AudioDecoder(resource: TestFileResource(url: whole, href: "whole.m4a")))
        #expect(zip(decoded.samples, straight.samples).allSatisfy { $0 == $1 }, "what plays is the start of the whole file")
    }

    /// Tags, chapters (QuickTime track or Nero), durations and covers as FFmpeg's demuxer reads them.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: [
        "antennapod__auphonic.m4a", "antennapod__nero-chapters.m4a", "mutagen__ep7.m4b", "mutagen__alac.m4a",
    ])
    func descriptionsAreFFmpegs(name: String) throws {
        let resource = try DecoderTestSupport.resource("audio/formats/\(name)")
        let ours = try #require(try MP4AudioFileInspector.inspect(resource))
        var ffmpeg = try FFmpegAudioFileInspector().inspectWithFFmpeg(resource)
        if name == "antennapod__auphonic.m4a" {
            // FFmpeg shows chapter 1's picture (a JPEG of the chapter image track); the book's cover
            // is its covr item, a PNG.
            #expect(ffmpeg.cover?.mediaType == .jpeg && ours.cover?.mediaType == .png)
            ffmpeg.cover = ours.cover
        }
        #expect(abs((ours.duration ?? 0) - (ffmpeg.duration ?? -1)) < 0.001, "\(name): \(String(describing: ours.duration)) s, FFmpeg \(String(describing: ffmpeg.duration)) s")
        ffmpeg.duration = ours.duration
        #expect(ours == ffmpeg)
    }
}
