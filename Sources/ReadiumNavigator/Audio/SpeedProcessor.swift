// SPDX-License-Identifier: GPL-3.0-or-later
/// Changes the playback speed of PCM while keeping its pitch (time-stretching).
///
/// A processor is owned by the render thread and is not thread-safe. Frames go in with `push`, come out
/// with `pull`; the output lags the input by a few tens of milliseconds, which `flush` releases at the
/// end of a stream. At speed 1.0 an implementation passes samples through bit-exactly.
/// The implementation lives in RAudioEngine (libsonic).
public protocol SpeedProcessor: AnyObject {
    /// The format of both input and output. Constant for the life of the processor.
    var format: PCMFormat { get }

    /// The speed factor: 2.0 plays twice as fast (half the duration), 0.5 half as fast.
    /// Values are clamped to `SpeedProcessorLimits.range`. Changing it mid-stream keeps buffered audio.
    var speed: Double { get set }

    /// Appends interleaved frames of `format` to the input. `samples.count` is a multiple of the channel count.
    func push(_ samples: UnsafeBufferPointer<Float>)

    /// Frames ready to be pulled now.
    var availableFrames: Int { get }

    /// Moves up to `buffer.count / format.channelCount` processed frames into `buffer`.
    /// Returns the number of frames written; 0 when nothing is ready (push more, or `flush`).
    func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int

    /// Marks the end of the input: everything pushed becomes available to `pull`.
    func flush()

    /// Drops all buffered input and output (after a seek or a stop).
    func reset()
}

/// The speeds a `SpeedProcessor` accepts.
public enum SpeedProcessorLimits {
    /// 0.5x to 3.0x; speeds outside are clamped.
    public static let range: ClosedRange<Double> = 0.5...3.0

    /// `speed` clamped to `range`; a NaN becomes 1.0.
    public static func clamp(_ speed: Double) -> Double {
        speed.isNaN ? 1.0 : min(max(speed, range.lowerBound), range.upperBound)
    }
}
