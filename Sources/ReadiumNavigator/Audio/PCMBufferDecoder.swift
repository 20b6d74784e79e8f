// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// An `AudioDecoder` over PCM already in memory, such as a `SynthesizedUtterance`.
///
/// Reading copies frames out of the buffer; seeking is exact and free. Like every decoder, use it
/// from one thread at a time.
public final class PCMBufferDecoder: AudioDecoder {
    public let format: PCMFormat
    public private(set) var currentFrame: Int64 = 0
    private let samples: [Float]
    private let href: String
    private let pool: PCMSampleBufferPool?

    /// Wraps `samples` (interleaved, `format.channelCount` per frame); `href` names it in errors.
    /// With a `pool`, the buffer goes back to it when the decoder is released.
    public init(samples: [Float], format: PCMFormat, href: String, recyclingInto pool: PCMSampleBufferPool? = nil) {
        self.samples = samples
        self.format = format
        self.href = href
        self.pool = pool
    }

    deinit {
        pool?.recycle(samples)
    }

    public var frameCount: Int64? { Int64(samples.count / max(format.channelCount, 1)) }

    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let total = Int64(samples.count / max(format.channelCount, 1))
        let frames = Int(max(0, min(Int64(maxFrames), total - currentFrame)))
        guard frames > 0 else { return 0 }
        let start = Int(currentFrame) * format.channelCount
        let count = frames * format.channelCount
        samples.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + start, count: count)
        }
        currentFrame += Int64(frames)
        return frames
    }

    public func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        guard frame >= 0 else {
            throw AudioDecoderError(.seekFailed, href: href, message: "cannot seek to negative frame \(frame)")
        }
        currentFrame = min(frame, frameCount ?? 0)
    }
}
