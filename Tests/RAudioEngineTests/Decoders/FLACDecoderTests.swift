// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// libFLAC for native FLAC (samples and seeks against FFmpeg are in `FFmpegDecoderTests`): which
/// files it takes, and a file that breaks off.
@Suite("FLAC decoder")
struct FLACDecoderTests {
    @Test func nativeFLACIsLibFLACsAndFLACInOggOrMP4IsFFmpegs() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        for (name, arguments, expectsLibFLAC) in [("a.flac", ["-c:a", "flac"], true), ("a.oga", ["-c:a", "flac", "-f", "ogg"], false),
                                                  ("a.m4a", ["-c:a", "flac", "-strict", "-2", "-f", "mp4"], false)] {
            let url = try FFmpegDecoderTests.make(name, arguments, in: directory)
            let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url, href: name), mediaType: nil)
            #expect((decoder is FLACDecoder) == expectsLibFLAC, "\(name): \(type(of: decoder))")
            #expect(DecoderTestSupport.decodeAll(decoder).frameCount == Int(3.3 * 44100), "\(name)")
        }
    }

    @Test func aFileThatBreaksOffPlaysWhatItHasThenSaysSo() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let whole = try FFmpegDecoderTests.make("whole.flac", ["-c:a", "flac"], in: directory)
        let data = try Data(contentsOf: whole)
        let cut = directory.appendingPathComponent("cut.flac")
        try data.prefix(data.count / 2).write(to: cut)
        let decoder = try FLACDecoder(resource: TestFileResource(url: cut, href: "cut.flac"))
        #expect(decoder.frameCount == Int64(3.3 * 44100), "STREAMINFO's length before decoding")
        let decoded = DecoderTestSupport.decodeAll(decoder)
        let error = try #require(decoded.error)
        #expect(error.code == .corrupt && error.href == "cut.flac")
        #expect(error.message.contains("breaks off"), "\(error.message)")
        #expect(decoded.frameCount > 0 && decoded.frameCount < Int(3.3 * 44100))
        #expect(decoder.frameCount == Int64(decoded.frameCount), "the decoded length once known")
        let straight = DecoderTestSupport.decodeAll(try FLACDecoder(resource: TestFileResource(url: whole, href: "whole.flac")))
        #expect(zip(decoded.samples, straight.samples).allSatisfy { $0 == $1 })
    }

    @Test func notFLACIsACorruptFileNamed() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let url = directory.appendingPathComponent("fake.flac")
        try Data("fLaC but nothing else of a FLAC file".utf8).write(to: url)
        #expect(throws: AudioDecoderError.self) { try FLACDecoder(resource: TestFileResource(url: url, href: "fake.flac")) }
        do {
            _ = try FLACDecoder(resource: TestFileResource(url: url, href: "fake.flac"))
        } catch {
            #expect(error.code == .corrupt && error.href == "fake.flac" && error.message.contains("STREAMINFO"), "\(error.message)")
        }
    }
}

/// A lone FLAC's tags, chapters and cover, read by libFLAC, as FFmpeg's demuxer reads them.
@Suite("FLAC metadata")
struct FLACMetadataTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func theCorpusFileIsDescribedAsFFmpegDoes() throws {
        let resource = try DecoderTestSupport.resource("audio/formats/mutagen__silence-44-s.flac")
        let ours = try #require(try FLACAudioFileInspector.inspect(resource))
        var ffmpeg = try FFmpegAudioFileInspector().inspectWithFFmpeg(resource)
        // FFmpeg titles the first cue-sheet track with its ISRC; the tracks have no titles.
        #expect(ffmpeg.chapters.first?.title == "123456789012" && ours.chapters.first?.title == nil)
        ffmpeg.chapters[0].title = nil
        #expect(ours == ffmpeg)
    }

    /// A FLAC made here with tags and a cover (by ffmpeg) and chapters as CHAPTERnnn comments (by
    /// metaflac: FFmpeg 5.1's FLAC muxer writes none).
    @Test func chaptersTagsAndCoverOfAFileMadeHere() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let cover = directory.appendingPathComponent("cover.png")
        try #require(try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-frames:v", "1", cover.path]) == 0)
        let audio = try FFmpegDecoderTests.make("plain.flac", ["-c:a", "flac"], in: directory)
        let book = directory.appendingPathComponent("book.flac")
        try #require(try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-i", audio.path, "-i", cover.path, "-map", "0:a", "-map", "1:v",
                                                          "-c:a", "copy", "-c:v", "png", "-disposition:v", "attached_pic",
                                                          "-metadata", "title=Un livre", "-metadata", "artist=Une autrice", "-metadata", "DESCRIPTION=Une description",
                                                          book.path]) == 0)
        try #require(try DecoderTestSupport.run("metaflac", ["--set-tag=CHAPTER001=00:00:00.000", "--set-tag=CHAPTER001NAME=Premier",
                                                            "--set-tag=CHAPTER002=00:00:01.200", "--set-tag=CHAPTER002NAME=Deuxième", book.path]) == 0)
        let resource = TestFileResource(url: book, href: "book.flac")
        let ours = try #require(try FLACAudioFileInspector.inspect(resource))
        #expect(ours.title == "Un livre" && ours.authors == ["Une autrice"] && ours.description == "Une description")
        #expect(ours.chapters.map(\.title) == ["Premier", "Deuxième"])
        #expect(ours.chapters.map(\.start) == [0, 1.2])
        #expect(ours.cover?.mediaType == .png)
        #expect(ours == (try FFmpegAudioFileInspector().inspectWithFFmpeg(resource)))
    }
}
