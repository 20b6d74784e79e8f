// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// Compares what a decoder reads after seeking with what a straight decode gives at the same frames.
enum SeekExactness {
    struct Result {
        /// Checkpoints whose samples differ (or whose read came up short).
        var mismatches: Int
    }

    /// Decodes a fresh decoder from `makeStraight` from start to end once, keeping `frames` frames at
    /// each checkpoint, then seeks `decoder` to each checkpoint and compares bit for bit.
    static func check(
        decoder: any AudioDecoder, checkpoints: [Int64], frames: Int,
        makeStraight: () throws(BenchmarkError) -> any AudioDecoder
    ) throws(BenchmarkError) -> Result {
        let channels = decoder.format.channelCount
        let expected = try straightWindows(of: makeStraight(), at: checkpoints, frames: frames)
        var mismatches = 0
        for (checkpoint, window) in zip(checkpoints, expected) {
            let actual: [Float]
            do {
                try decoder.seek(toFrame: checkpoint)
                actual = try readFully(decoder, frames: frames)
            } catch {
                throw .failed("seek to \(checkpoint) for the exactness check: \(error)")
            }
            if actual.count != frames * channels || actual != window {
                BenchmarkRunner.log("seek-latency: frame \(checkpoint): samples differ from a straight decode")
                mismatches += 1
            }
        }
        return Result(mismatches: mismatches)
    }

    /// The samples of `frames` frames at each checkpoint, from one pass over the whole stream.
    private static func straightWindows(of decoder: any AudioDecoder, at checkpoints: [Int64], frames: Int) throws(BenchmarkError) -> [[Float]] {
        let channels = decoder.format.channelCount
        let chunk = 65536
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        var windows = Array(repeating: [Float](), count: checkpoints.count)
        var position: Int64 = 0
        while true {
            let count: Int
            do {
                count = try decoder.read(into: buffer, maxFrames: chunk)
            } catch {
                throw .failed("straight decode at frame \(position): \(error)")
            }
            guard count > 0 else { break }
            let end = position + Int64(count)
            for (index, checkpoint) in checkpoints.enumerated() {
                let from = max(checkpoint, position)
                let to = min(checkpoint + Int64(frames), end)
                guard from < to else { continue }
                let first = Int(from - position) * channels
                let last = Int(to - position) * channels
                windows[index].append(contentsOf: UnsafeBufferPointer(start: buffer + first, count: last - first))
            }
            position = end
        }
        return windows
    }

    private static func readFully(_ decoder: any AudioDecoder, frames: Int) throws(AudioDecoderError) -> [Float] {
        let channels = decoder.format.channelCount
        var samples = [Float](repeating: 0, count: frames * channels)
        var done = 0
        try samples.withUnsafeMutableBufferPointer { pointer throws(AudioDecoderError) in
            while done < frames {
                let count = try decoder.read(into: pointer.baseAddress! + done * channels, maxFrames: frames - done)
                guard count > 0 else { break }
                done += count
            }
        }
        return Array(samples.prefix(done * channels))
    }
}
