// SPDX-License-Identifier: GPL-3.0-or-later
import CSoxr
import ReadiumNavigator
import ReadiumShared

/// Converts PCM between formats with libsoxr for the rate, and a simple channel map in Swift.
///
/// Wraps `soxr_create` (float32 interleaved in and out, libsoxr's default high quality), `soxr_process`
/// (a NULL input flushes the filter), `soxr_clear` and `soxr_delete`. Channels are mixed before
/// resampling when there are fewer output channels and after it when there are more, so soxr always
/// runs on the smaller count. Equal rates skip soxr. Render thread only; allocation-free per buffer
/// once the output queue has grown to the stream's block size.
public final class SoxrResampler: Resampler {
    public let inputFormat: PCMFormat
    public let outputFormat: PCMFormat
    /// nil when the rates are equal and only channels change.
    private let soxr: soxr_t?
    private let soxrChannels: Int
    /// Input frames handed to soxr per call, bounding the scratch buffers.
    private let chunkFrames = 4096
    private let mixedInput: UnsafeMutablePointer<Float>
    private let resampled: UnsafeMutablePointer<Float>
    private let resampledCapacityFrames: Int
    private var output: SampleFIFO

    /// Creates a resampler from `input` to `output`. Calls `soxr_create`.
    public init(from input: PCMFormat, to output: PCMFormat) throws(ResamplerError) {
        guard input.sampleRate > 0, output.sampleRate > 0, input.channelCount > 0, output.channelCount > 0 else {
            throw ResamplerError(.resamplerFailed, message: "cannot resample from \(input) to \(output)")
        }
        inputFormat = input
        outputFormat = output
        soxrChannels = min(input.channelCount, output.channelCount)
        if input.sampleRate != output.sampleRate {
            var error: soxr_error_t?
            var ioSpec = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
            let handle = soxr_create(Double(input.sampleRate), Double(output.sampleRate), UInt32(soxrChannels),
                                     &error, &ioSpec, nil, nil)
            guard let handle, error == nil else {
                let reason = error.map { String(cString: $0) } ?? "unknown error"
                throw ResamplerError(.resamplerFailed, message: "libsoxr cannot resample from \(input) to \(output): \(reason)")
            }
            soxr = handle
        } else {
            soxr = nil
        }
        let ratio = Double(output.sampleRate) / Double(input.sampleRate)
        resampledCapacityFrames = Int((Double(chunkFrames) * ratio).rounded(.up)) + 256
        mixedInput = .allocate(capacity: chunkFrames * soxrChannels)
        resampled = .allocate(capacity: resampledCapacityFrames * soxrChannels)
        self.output = SampleFIFO(capacity: resampledCapacityFrames * 2 * output.channelCount)
    }

    deinit {
        if let soxr { soxr_delete(soxr) }
        mixedInput.deallocate()
        resampled.deallocate()
    }

    public func push(_ samples: UnsafeBufferPointer<Float>) {
        guard var cursor = samples.baseAddress else { return }
        var remaining = samples.count / inputFormat.channelCount
        while remaining > 0 {
            let frames = min(remaining, chunkFrames)
            let soxrInput: UnsafePointer<Float>
            if inputFormat.channelCount == soxrChannels {
                soxrInput = cursor
            } else {
                Self.mix(cursor, channels: inputFormat.channelCount, into: mixedInput, channels: soxrChannels, frames: frames)
                soxrInput = UnsafePointer(mixedInput)
            }
            process(soxrInput, frames: frames)
            cursor += frames * inputFormat.channelCount
            remaining -= frames
        }
    }

    public var availableFrames: Int { output.count / outputFormat.channelCount }

    public func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = outputFormat.channelCount
        guard let base = buffer.baseAddress else { return 0 }
        return output.pop(into: UnsafeMutableBufferPointer(start: base, count: buffer.count / channels * channels)) / channels
    }

    public func flush() {
        guard soxr != nil else { return }
        process(nil, frames: 0)
    }

    public func reset() {
        if let soxr { soxr_clear(soxr) }
        output.removeAll()
    }

    /// Feeds `frames` frames of `soxrChannels` (nil: end of input) through soxr, or straight through
    /// when the rates match, and queues the result with the output channel count.
    private func process(_ input: UnsafePointer<Float>?, frames: Int) {
        guard let soxr else {
            if let input { enqueue(input, frames: frames) }
            return
        }
        var consumed = 0
        repeat {
            var inputDone = 0
            var outputDone = 0
            let error = soxr_process(soxr, input.map { UnsafeRawPointer($0 + consumed * soxrChannels) },
                                     frames - consumed, &inputDone, resampled, resampledCapacityFrames, &outputDone)
            if error != nil { return }  // only on invalid arguments, which init rules out
            consumed += inputDone
            enqueue(resampled, frames: outputDone)
            // Flushing: call again until the tail is out. Else: until all input is taken.
            if input == nil ? outputDone == 0 : (consumed >= frames && outputDone < resampledCapacityFrames) { break }
        } while true
    }

    private func enqueue(_ source: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        let channels = outputFormat.channelCount
        let destination = output.reserve(frames * channels)
        if soxrChannels == channels {
            destination.update(from: source, count: frames * channels)
        } else {
            Self.mix(source, channels: soxrChannels, into: destination, channels: channels, frames: frames)
        }
        output.commit(frames * channels)
    }

    /// Maps channels: output channel c takes the mean of the input channels i with i % outputs == c,
    /// or, with more outputs than inputs, input channel c % inputs (mono is copied to every channel).
    static func mix(_ source: UnsafePointer<Float>, channels inputs: Int,
                    into destination: UnsafeMutablePointer<Float>, channels outputs: Int, frames: Int) {
        if inputs < outputs {
            for frame in 0..<frames {
                for channel in 0..<outputs {
                    destination[frame * outputs + channel] = source[frame * inputs + channel % inputs]
                }
            }
            return
        }
        for frame in 0..<frames {
            for channel in 0..<outputs {
                var sum: Float = 0
                var count: Float = 0
                var input = channel
                while input < inputs {
                    sum += source[frame * inputs + input]
                    count += 1
                    input += outputs
                }
                destination[frame * outputs + channel] = sum / count
            }
        }
    }
}

/// A resampler could not be created for the formats asked.
public typealias ResamplerError = RAudioError<ResamplerErrorDomain>

/// The domain of `ResamplerError`; its codes are words of `RAudioErrorCode`.
public enum ResamplerErrorDomain: RAudioErrorDomain {}
