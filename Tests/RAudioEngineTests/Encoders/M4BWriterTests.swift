// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// M4B files written with FFmpeg's AAC encoder and MP4 muxer, read back with raudio's own MP4 reader and decoder.
@Suite struct M4BWriterTests {
    static let format = PCMFormat(sampleRate: 22_050, channelCount: 1)

    /// `seconds` of a 440 Hz sine at half scale.
    static func sine(seconds: Double, from start: Int = 0) -> [Float] {
        (0..<Int(seconds * Double(format.sampleRate))).map { Float(0.5 * sin(2 * Double.pi * 440 * Double(start + $0) / Double(format.sampleRate))) }
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("raudio-m4b-\(UUID().uuidString).m4b").path
    }

    @Test func chaptersTagsAndAudioComeBack() throws {
        let path = Self.temporaryPath()
        defer { if ProcessInfo.processInfo.environment["KEEP_M4B"] == nil { unlink(path) } else { print("KEPT", path) } }
        let writer = try M4BWriter(path: path, format: Self.format, tags: .init(title: "The Lamp", authors: ["Ann Author"], narrators: ["en-us"]))
        // Appended in pieces of uneven sizes, as utterances come.
        var written = 0
        for seconds in [0.7, 0.3, 1.2, 0.8] {
            try writer.append(Self.sine(seconds: seconds, from: written))
            written += Int(seconds * Double(Self.format.sampleRate))
            #expect(!FileManager.default.fileExists(atPath: path), "nothing under the output's name before the end")
        }
        let duration = try writer.finish(chapters: [.init(title: "One", start: 0), .init(title: "Two", start: 1.0), .init(title: "Three", start: 2.2)])
        #expect(abs(duration - 3.0) < 0.001)
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".\((path as NSString).lastPathComponent)") }
        #expect(temporary.isEmpty, "left beside it: \(temporary)")

        let description = try FFmpegAudioFileInspector().inspect(TestFileResource(url: URL(fileURLWithPath: path), href: "book.m4b"))
        #expect(description.title == "The Lamp")
        #expect(description.authors == ["Ann Author"])
        #expect(description.narrators == ["en-us"])
        #expect(description.chapters.map(\.title) == ["One", "Two", "Three"])
        let starts = description.chapters.map(\.start)
        #expect(zip(starts, [0, 1.0, 2.2]).allSatisfy { abs($0 - $1) < 0.002 }, "\(starts)")
        let length = try #require(description.duration)
        #expect(abs(length - 3.0) < 0.05, "\(length) s")

        // The audio: as long, and the sine (AAC at 64 kbit/s keeps a pure tone close).
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: URL(fileURLWithPath: path), href: "book.m4b"), mediaType: nil)
        var decoded: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 4096) }
            if count == 0 { break }
            decoded.append(contentsOf: buffer[0..<(count * decoder.format.channelCount)])
        }
        #expect(decoder.format.sampleRate == Self.format.sampleRate)
        #expect(abs(decoded.count - written) < 1024, "\(decoded.count) samples decoded of \(written)")
        let rms = (decoded.dropFirst(2048).prefix(44_100).map { $0 * $0 }.reduce(0, +) / 44_100).squareRoot()
        #expect(abs(rms - 0.3536) < 0.02, "RMS \(rms), a half-scale sine's is 0.354")
    }

    @Test func theCoverComesBack() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        // A 1×1 PNG.
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
        let writer = try M4BWriter(path: path, format: Self.format, tags: .init(title: "Covered", cover: png))
        try writer.append(Self.sine(seconds: 1))
        try writer.finish(chapters: [.init(title: "One", start: 0)])
        let description = try FFmpegAudioFileInspector().inspect(TestFileResource(url: URL(fileURLWithPath: path), href: "book.m4b"))
        #expect(description.cover?.data == png)
        #expect(description.chapters.map(\.title) == ["One"])
    }

    @Test func cancellingLeavesNoFile() throws {
        let path = Self.temporaryPath()
        let writer = try M4BWriter(path: path, format: Self.format, tags: .init(title: "x"))
        try writer.append(Self.sine(seconds: 0.5))
        writer.cancel()
        let folder = (path as NSString).deletingLastPathComponent
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains((path as NSString).lastPathComponent) }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func anUnwritableFolderIsAClearError() throws {
        let error = #expect(throws: AudioSinkError.self) {
            _ = try M4BWriter(path: "/proc/raudio-cannot-write-here/book.m4b", format: Self.format, tags: .init(title: "x"))
        }
        #expect(error?.code == .cannotCreate)
        #expect(error?.subject == "/proc/raudio-cannot-write-here/book.m4b")
    }
}
