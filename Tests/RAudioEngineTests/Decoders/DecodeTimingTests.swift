// SPDX-License-Identifier: GPL-3.0-or-later
import CMPG123
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// Hand measurement, not a benchmark: prints how long the decoders take to decode long files to
/// nowhere and to seek, to compare with `mpg123 -w /dev/null` / `oggdec -o /dev/null` (see
/// docs/PERFORMANCE.md). Asserts nothing about time. Enabled only when RAUDIO_DECODE_TIMING lists
/// files (colon-separated); time it in release: `RAUDIO_DECODE_TIMING=/tmp/a.mp3:/tmp/b.ogg
/// swift test -c release --filter DecodeTimingTests`. RAUDIO_DECODE_TIMING_RUNS sets the repetitions.
@Suite("Decode timing (by hand)", .serialized, .enabled(if: DecodeTimingInputs.files.isEmpty == false, "set RAUDIO_DECODE_TIMING to files to time"))
struct DecodeTimingTests {
    static let runs = Int(ProcessInfo.processInfo.environment["RAUDIO_DECODE_TIMING_RUNS"] ?? "") ?? 5

    @Test(arguments: DecodeTimingInputs.files)
    func decodeToNowhereAndSeek(path: String) throws {
        let resource = FileResource(url: URL(fileURLWithPath: path))
        let factory = RAudioDecoderFactory()
        var decodeSeconds: [Double] = []
        var cpuSeconds: [Double] = []
        var frames: Int64 = 0
        var format = PCMFormat(sampleRate: 1, channelCount: 1)
        for _ in 0..<Self.runs {
            let start = ContinuousClock.now
            let cpuStart = Self.threadCPUSeconds()
            let decoder = try factory.makeDecoder(for: resource, mediaType: nil)
            format = decoder.format
            var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
            frames = 0
            while true {
                let got = try buffer.withUnsafeMutableBufferPointer { pointer throws(AudioDecoderError) in
                    try decoder.read(into: pointer.baseAddress!, maxFrames: 4096)
                }
                if got == 0 { break }
                frames += Int64(got)
            }
            decodeSeconds.append(Self.seconds(ContinuousClock.now - start))
            cpuSeconds.append(Self.threadCPUSeconds() - cpuStart)
        }
        let audioSeconds = Double(frames) / Double(format.sampleRate)
        let median = Self.median(decodeSeconds)
        print("TIMING decode \(path): median \(String(format: "%.3f", median)) s of \(decodeSeconds.map { String(format: "%.3f", $0) }) for \(String(format: "%.0f", audioSeconds)) s of audio, \(String(format: "%.0f", audioSeconds / median))x real time; CPU of the decoding thread median \(String(format: "%.3f", Self.median(cpuSeconds))) s")

        // Seeks to 59:00 (or 98 % in): on a fresh decoder, then on one that has its index.
        var fresh: [Double] = []
        var indexed: [Double] = []
        for run in 0..<Self.runs {
            let decoder = try factory.makeDecoder(for: resource, mediaType: nil)
            let target = min(Int64(3540 * format.sampleRate), frames * 98 / 100)
            var start = ContinuousClock.now
            try decoder.seek(toFrame: target)
            fresh.append(Self.seconds(ContinuousClock.now - start))
            (decoder as? MPG123Decoder)?.waitForFrameIndex()
            var generator = SplitMix64(seed: UInt64(run + 1))
            for _ in 0..<20 {
                let frame = Int64.random(in: 0..<frames, using: &generator)
                start = ContinuousClock.now
                try decoder.seek(toFrame: frame)
                indexed.append(Self.seconds(ContinuousClock.now - start))
            }
        }
        if path.lowercased().hasSuffix(".mp3") {
            // The same seek on a bare handle, with no background scan competing for the CPU.
            var bare: [Double] = []
            for _ in 0..<Self.runs {
                let handle = try MPG123Handle(resource: resource)
                _ = try handle.nativeFormat()
                let target = min(Int64(3540 * format.sampleRate), frames * 98 / 100)
                let start = ContinuousClock.now
                _ = mpg123_seek(handle.raw, off_t(target), SEEK_SET)
                bare.append(Self.seconds(ContinuousClock.now - start))
            }
            print("TIMING seek \(path): bare handle (no scan running) to 59:00 median \(String(format: "%.2f", Self.median(bare) * 1000)) ms")
        }
        print("TIMING seek \(path): fresh decoder to 59:00 median \(String(format: "%.2f", Self.median(fresh) * 1000)) ms; with the index median \(String(format: "%.3f", Self.median(indexed) * 1000)) ms, max \(String(format: "%.3f", (indexed.max() ?? 0) * 1000)) ms")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// CPU time of the calling thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`): less noisy than
    /// wall time on a shared machine.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// The files named by RAUDIO_DECODE_TIMING (colon-separated); empty when it is unset.
enum DecodeTimingInputs {
    static let files: [String] = (ProcessInfo.processInfo.environment["RAUDIO_DECODE_TIMING"] ?? "")
        .split(separator: ":").map(String.init)
}
