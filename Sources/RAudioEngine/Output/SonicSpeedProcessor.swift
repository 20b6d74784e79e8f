// SPDX-License-Identifier: GPL-3.0-or-later
import CSonic
import ReadiumNavigator

/// Time-stretches PCM with libsonic, keeping the pitch; passes samples through untouched at speed 1.0.
///
/// Wraps `sonicCreateStream`, `sonicSetSpeed`, `sonicWriteFloatToStream`, `sonicReadFloatFromStream` and
/// `sonicFlushStream`. At 1.0 sonic is bypassed (sonic stores 16-bit samples internally, which would not
/// be bit-exact). Changing the speed back to 1.0 flushes what sonic holds first, so nothing is lost or
/// reordered. Render thread only; allocation-free once its buffer has grown to the stream's block size.
public final class SonicSpeedProcessor: SpeedProcessor {
    public let format: PCMFormat
    private let stream: sonicStream
    /// Audio ready to pull that precedes whatever sonic holds: the passthrough output at 1.0.
    private var ready: SampleFIFO

    public var speed: Double {
        didSet {
            speed = SpeedProcessorLimits.clamp(speed)
            guard speed != oldValue else { return }
            if speed == 1.0 {
                // Release what sonic holds so later passthrough samples cannot overtake it.
                sonicFlushStream(stream)
                moveSonicOutputToReady()
            }
            sonicSetSpeed(stream, Float(speed))
        }
    }

    /// Creates a processor for `format` at `speed` (clamped to 0.5...3.0).
    /// Returns nil when libsonic cannot create a stream (out of memory, absurd format).
    public init?(format: PCMFormat, speed: Double = 1.0) {
        guard format.channelCount > 0, format.sampleRate > 0,
              let stream = sonicCreateStream(Int32(format.sampleRate), Int32(format.channelCount))
        else { return nil }
        self.format = format
        self.stream = stream
        self.speed = SpeedProcessorLimits.clamp(speed)
        ready = SampleFIFO(capacity: 8192 * format.channelCount)
        sonicSetSpeed(stream, Float(self.speed))
    }

    deinit { sonicDestroyStream(stream) }

    public func push(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        if speed == 1.0 {
            ready.push(samples)
        } else {
            // sonic's signature lacks const; it does not write to the input.
            sonicWriteFloatToStream(stream, UnsafeMutablePointer(mutating: base), Int32(samples.count / format.channelCount))
        }
    }

    public var availableFrames: Int {
        ready.count / format.channelCount + Int(sonicSamplesAvailable(stream))
    }

    public func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channelCount
        let capacity = buffer.count / channels * channels
        guard capacity > 0, let base = buffer.baseAddress else { return 0 }
        let fromReady = ready.pop(into: UnsafeMutableBufferPointer(start: base, count: capacity))
        var frames = fromReady / channels
        let room = (capacity - fromReady) / channels
        if room > 0 {
            frames += Int(max(0, sonicReadFloatFromStream(stream, base + fromReady, Int32(room))))
        }
        return frames
    }

    public func flush() {
        sonicFlushStream(stream)
    }

    public func reset() {
        ready.removeAll()
        sonicFlushStream(stream)
        moveSonicOutputToReady()
        ready.removeAll()
    }

    private func moveSonicOutputToReady() {
        while case let frames = Int(sonicSamplesAvailable(stream)), frames > 0 {
            let destination = ready.reserve(frames * format.channelCount)
            let read = Int(max(0, sonicReadFloatFromStream(stream, destination, Int32(frames))))
            ready.commit(read * format.channelCount)
            if read == 0 { break }
        }
    }
}
