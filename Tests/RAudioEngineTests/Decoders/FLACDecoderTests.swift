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
