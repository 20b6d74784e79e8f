// SPDX-License-Identifier: GPL-3.0-or-later
/// Converts PCM from one `PCMFormat` to another: sample rate and channel count.
///
/// Used when a sink cannot follow a format change (a WAV file keeps its first format) or when tracks of
/// different rates play into one stream. Owned by the render thread, not thread-safe. Frames go in
/// with `push` and come out with `pull`; the filter delays output slightly, which `flush` releases at
/// the end of a stream. The implementation lives in RAudioEngine (libsoxr).
public protocol Resampler: AnyObject {
    /// The format pushed in.
    var inputFormat: PCMFormat { get }
    /// The format pulled out.
    var outputFormat: PCMFormat { get }

    /// Appends interleaved frames of `inputFormat`. `samples.count` is a multiple of its channel count.
    func push(_ samples: UnsafeBufferPointer<Float>)

    /// Frames of `outputFormat` ready to be pulled now.
    var availableFrames: Int { get }

    /// Moves up to `buffer.count / outputFormat.channelCount` frames into `buffer`; returns the frames written.
    func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int

    /// Marks the end of the input: the filter's tail becomes available to `pull`.
    func flush()

    /// Drops all buffered audio and readies the resampler for an unrelated stream.
    func reset()
}
