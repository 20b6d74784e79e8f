// SPDX-License-Identifier: GPL-3.0-or-later
/// A plain linear-interpolation resampler with channel mapping, in pure Swift.
///
/// The engine uses libsoxr; this is the fallback when soxr cannot be created for a format, so that a
/// track still plays at the right speed (with a little less fidelity) instead of being dropped.
/// Mono input goes to every output channel; extra input channels are averaged down.
public final class LinearResampler: Resampler {
    public let inputFormat: PCMFormat
    public let outputFormat: PCMFormat
    private var pending: [Float] = []
    private var output: [Float] = []
    private var outputStart = 0
    /// Position of the next output frame, in input frames relative to `pending`'s first frame.
    private var position = 0.0
    private let step: Double

    public init(from: PCMFormat, to: PCMFormat) {
        inputFormat = from
        outputFormat = to
        step = Double(from.sampleRate) / Double(to.sampleRate)
    }

    public func push(_ samples: UnsafeBufferPointer<Float>) {
        let inputChannels = inputFormat.channelCount
        let frames = samples.count / inputChannels
        for frame in 0..<frames {
            if inputChannels == 1 || outputFormat.channelCount == inputChannels {
                pending.append(contentsOf: samples[frame * inputChannels..<(frame + 1) * inputChannels])
            } else {
                var sum: Float = 0
                for channel in 0..<inputChannels { sum += samples[frame * inputChannels + channel] }
                pending.append(sum / Float(inputChannels))
            }
        }
        interpolate(final: false)
    }

    public var availableFrames: Int { (output.count - outputStart) / outputFormat.channelCount }

    public func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = outputFormat.channelCount
        let frames = min(buffer.count / channels, availableFrames)
        for index in 0..<frames * channels { buffer[index] = output[outputStart + index] }
        outputStart += frames * channels
        if outputStart == output.count {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
        }
        return frames
    }

    public func flush() {
        interpolate(final: true)
    }

    public func reset() {
        pending.removeAll(keepingCapacity: true)
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        position = 0
    }

    private var pendingChannels: Int {
        inputFormat.channelCount == 1 || outputFormat.channelCount == inputFormat.channelCount ? inputFormat.channelCount : 1
    }

    private func interpolate(final: Bool) {
        let channels = pendingChannels
        let frames = pending.count / channels
        let lastUsable = final ? frames - 1 : frames - 2
        while frames > 0, Int(position) <= lastUsable {
            let left = Int(position)
            let right = min(left + 1, frames - 1)
            let fraction = Float(position - Double(left))
            for channel in 0..<outputFormat.channelCount {
                let source = channels == 1 ? 0 : channel
                let a = pending[left * channels + source]
                let b = pending[right * channels + source]
                output.append(a + (b - a) * fraction)
            }
            position += step
        }
        let consumed = min(Int(position), frames)
        if consumed > 0 {
            pending.removeFirst(consumed * channels)
            position -= Double(consumed)
        }
    }
}
