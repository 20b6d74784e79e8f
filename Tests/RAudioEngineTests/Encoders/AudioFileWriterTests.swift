// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// MP3, AAC in MP4 and Opus in Ogg written with FFmpeg's encoders and muxers, decoded back by raudio's decoders:
/// as long as what was appended (the containers record the encoders' delay and padding), and byte-identical
/// from one run to the next.
@Suite struct AudioFileWriterTests {
    static let format = PCMFormat(sampleRate: 22_050, channelCount: 1)

    static func temporaryPath(_ codec: AudioFileCodec) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("raudio-writer-\(UUID().uuidString).\(codec.fileExtension)").path
    }

    /// Writes `pieces` seconds of a 330 Hz sine, appended piece by piece; returns the frames appended.
    static func write(_ codec: AudioFileCodec, to path: String, pieces: [Double]) throws -> Int {
        let writer = try AudioFileWriter(path: path, format: format, codec: codec, tags: .init(title: "Sine", authors: ["A"], narrators: ["en"]))
        var written = 0
        for seconds in pieces {
            let count = Int(seconds * Double(format.sampleRate))
            try writer.append((0..<count).map { Float(0.4 * sin(2 * Double.pi * 330 * Double(written + $0) / Double(format.sampleRate))) })
            written += count
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        try writer.finish()
        return written
    }

    /// The seconds raudio's decoder gives for the file at `path`.
    static func decodedSeconds(_ path: String) throws -> Double {
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: URL(fileURLWithPath: path), href: "a"), mediaType: nil)
        var frames = 0
        var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 4096) }
            if count == 0 { break }
            frames += count
        }
        return Double(frames) / Double(decoder.format.sampleRate)
    }

    @Test(arguments: AudioFileCodec.allCases)
    func decodedLengthIsWhatWasAppended(_ codec: AudioFileCodec) throws {
        let path = Self.temporaryPath(codec)
        defer { unlink(path) }
        let frames = try Self.write(codec, to: path, pieces: [0.71, 0.33, 1.234, 0.05])
        let appended = Double(frames) / Double(Self.format.sampleRate)
        let decoded = try Self.decodedSeconds(path)
        #expect(abs(decoded - appended) < 0.010, "\(codec): decoded \(decoded) s of \(appended) s")
    }

    @Test(arguments: AudioFileCodec.allCases)
    func twoWritesAreByteIdentical(_ codec: AudioFileCodec) throws {
        let first = Self.temporaryPath(codec), second = Self.temporaryPath(codec)
        defer { unlink(first); unlink(second) }
        _ = try Self.write(codec, to: first, pieces: [0.5, 0.25])
        _ = try Self.write(codec, to: second, pieces: [0.5, 0.25])
        let a = try Data(contentsOf: URL(fileURLWithPath: first)), b = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(!a.isEmpty)
        #expect(a == b, "\(codec): \(a.count) and \(b.count) bytes differ")
    }

    @Test func anUnwritableFolderIsAClearError() {
        let error = #expect(throws: AudioSinkError.self) {
            _ = try AudioFileWriter(path: "/proc/raudio-cannot-write-here/a.mp3", format: Self.format, codec: .mp3, tags: .init(title: nil))
        }
        #expect(error?.code == .cannotCreate)
    }

    @Test func cancellingLeavesNoFile() throws {
        let path = Self.temporaryPath(.mp3)
        let writer = try AudioFileWriter(path: path, format: Self.format, codec: .mp3, tags: .init(title: nil))
        try writer.append([Float](repeating: 0.1, count: 5000))
        writer.cancel()
        let folder = (path as NSString).deletingLastPathComponent
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains((path as NSString).lastPathComponent) }
        #expect(left.isEmpty, "\(left)")
    }
}
