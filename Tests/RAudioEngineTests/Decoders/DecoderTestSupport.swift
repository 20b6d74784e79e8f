// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Synchronization
@testable import RAudioEngine

/// What decoding a whole resource gave: the samples, and the error that ended it, if any.
struct DecodedAudio {
    var format: PCMFormat
    var samples: [Float]
    var error: AudioDecoderError?
    var frameCount: Int { samples.count / format.channelCount }
}

enum DecoderTestSupport {
    /// Every file under `audio/` in the corpus, relative to the corpus root; empty without a corpus.
    static func corpusAudioFiles(in folders: [String]) -> [String] {
        guard let root = Corpus.root else { return [] }
        var paths: [String] = []
        for folder in folders {
            let url = root.appendingPathComponent("audio/\(folder)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            paths += names.sorted().map { "audio/\(folder)/\($0)" }
        }
        return paths
    }

    static func resource(_ corpusPath: String) throws -> TestFileResource {
        let url = try Corpus.file(corpusPath)
        return TestFileResource(url: url, href: corpusPath)
    }

    /// Reads `decoder` to its end in blocks of `blockFrames`, keeping the error that ended it.
    static func decodeAll(_ decoder: any AudioDecoder, blockFrames: Int = 4096) -> DecodedAudio {
        let channels = decoder.format.channelCount
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: blockFrames * channels)
        var failure: AudioDecoderError?
        while true {
            do {
                let frames = try block.withUnsafeMutableBufferPointer { buffer throws(AudioDecoderError) in
                    try decoder.read(into: buffer.baseAddress!, maxFrames: blockFrames)
                }
                if frames == 0 { break }
                samples += block[0..<(frames * channels)]
            } catch {
                failure = error
                break
            }
        }
        return DecodedAudio(format: decoder.format, samples: samples, error: failure)
    }

    /// Reads exactly up to `frames` frames from the current position.
    static func readFrames(_ decoder: any AudioDecoder, count frames: Int) throws(AudioDecoderError) -> [Float] {
        let channels = decoder.format.channelCount
        var result: [Float] = []
        var block = [Float](repeating: 0, count: frames * channels)
        while result.count < frames * channels {
            let wanted = frames - result.count / channels
            let got = try block.withUnsafeMutableBufferPointer { buffer throws(AudioDecoderError) in
                try decoder.read(into: buffer.baseAddress!, maxFrames: wanted)
            }
            if got == 0 { break }
            result += block[0..<(got * channels)]
        }
        return result
    }

    /// Runs a tool and returns its exit status (stdout and stderr discarded).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-decoders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Decodes `file` with a reference tool into a WAV (mpg123 for MP3 with float output, oggdec for
    /// Ogg Vorbis in 16-bit) and reads it back; nil when the tool fails.
    static func referenceDecode(_ file: URL) throws -> DecodedAudio? {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let wav = directory.appendingPathComponent("reference.wav")
        let status: Int32 = if file.pathExtension.lowercased() == "mp3" {
            try run("mpg123", ["-q", "-e", "f32", "-w", wav.path, file.path])
        } else {
            try run("oggdec", ["-Q", "-o", wav.path, file.path])
        }
        guard status == 0, let data = try? Data(contentsOf: wav) else { return nil }
        return WAVReader.decode(data)
    }

    /// This process's resident set size in MB (`VmRSS` of /proc/self/status).
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
        return kilobytes / 1024
    }
}

extension FileManager {
    func removeAllItems(at url: URL) throws { try removeItem(at: url) }
}

/// Reads the PCM of a WAV file made by mpg123 (float 32) or oggdec (16-bit integer).
enum WAVReader {
    static func decode(_ data: Data) -> DecodedAudio? {
        let bytes = [UInt8](data.prefix(4096))
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)) else { return nil }
        func uint32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func uint16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var offset = 12
        var channels = 0, rate = 0, bits = 0, formatTag = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            var size = uint32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                formatTag = uint16(body)
                channels = uint16(body + 2)
                rate = uint32(body + 4)
                bits = uint16(body + 14)
                if formatTag == 0xFFFE { formatTag = uint16(body + 24) }
            } else if id == "data" {
                // mpg123 may leave the size unset when writing to a pipe; clamp to what is there.
                size = min(size, data.count - body)
                guard channels > 0 else { return nil }
                let samples: [Float]
                if formatTag == 3, bits == 32 {
                    samples = data.withUnsafeBytes { raw in
                        (0..<(size / 4)).map { raw.loadUnaligned(fromByteOffset: body + $0 * 4, as: Float.self) }
                    }
                } else if bits == 16 {
                    samples = data.withUnsafeBytes { raw in
                        (0..<(size / 2)).map { Float(raw.loadUnaligned(fromByteOffset: body + $0 * 2, as: Int16.self)) / 32768 }
                    }
                } else {
                    return nil
                }
                return DecodedAudio(format: PCMFormat(sampleRate: rate, channelCount: channels), samples: samples, error: nil)
            }
            offset = body + size + (size & 1)
        }
        return nil
    }
}
