// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Where an `AudioNavigator` plays to (`--output`).
public enum OutputDestination: Sendable, Equatable {
    /// A PulseAudio server (nil: `$PULSE_SERVER`, else the default), the stream named `title`.
    case pulse(server: String?, title: String)
    /// A 16-bit WAV file at `path`, written as fast as decoding allows unless `realtime`.
    case wav(path: String)
    /// Nowhere, as fast as decoding allows unless `realtime`.
    case null
}

/// Builds the real `AudioComponents`: `RAudioDecoderFactory`'s decoders, the chosen sink, libsonic speed,
/// libsoxr resampling and `AudioDurationProbe`.
public enum AudioEngineComponents {
    /// The components for `destination`. `realtime` paces the WAV and null sinks to the clock
    /// (PulseAudio always keeps the pace of the sound card).
    public static func make(output destination: OutputDestination, realtime: Bool = false) -> AudioComponents {
        AudioComponents(
            decoderFactory: RAudioDecoderFactory(),
            makeSink: { () throws(AudioSinkError) -> any AudioSink in
                try makeSink(destination, realtime: realtime)
            },
            makeSpeedProcessor: { (format: PCMFormat) -> any SpeedProcessor in
                if let sonic = SonicSpeedProcessor(format: format) { return sonic }
                return PassthroughSpeedProcessor(format: format)
            },
            makeResampler: { (from: PCMFormat, to: PCMFormat) -> any Resampler in
                if let soxr = try? SoxrResampler(from: from, to: to) { return soxr }
                return LinearResampler(from: from, to: to)
            },
            probeDuration: { (resource: any Resource) -> Double? in
                guard let duration = try? AudioDurationProbe.duration(of: resource) else { return nil }
                return duration.seconds
            }
        )
    }
}

extension AudioEngineComponents {
    /// Makes the sink for `destination`; called on the render thread.
    public static func makeSink(_ destination: OutputDestination, realtime: Bool) throws(AudioSinkError) -> any AudioSink {
        switch destination {
        case .pulse(let server, let title):
            let server = server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"]
            return try PulseAudioSink(identity: PulseAudioIdentity(title: title), server: server)
        case .wav(let path):
            return try WAVFileSink(url: URL(fileURLWithPath: path), pacer: realtime ? RealtimePacer() : nil)
        case .null:
            return NullSink(pacer: realtime ? RealtimePacer() : nil)
        }
    }
}

/// The fallback when libsonic cannot make a stream: plays at 1.0 only.
final class PassthroughSpeedProcessor: SpeedProcessor {
    let format: PCMFormat
    var speed: Double = 1
    private var samples: [Float] = []

    init(format: PCMFormat) {
        self.format = format
        samples.reserveCapacity(16_384 * format.channelCount)
    }

    func push(_ input: UnsafeBufferPointer<Float>) { samples.append(contentsOf: input) }
    var availableFrames: Int { samples.count / format.channelCount }
    func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let count = min(buffer.count / format.channelCount, availableFrames) * format.channelCount
        guard count > 0 else { return 0 }
        for index in 0..<count { buffer[index] = samples[index] }
        samples.removeFirst(count)
        return count / format.channelCount
    }
    func flush() {}
    func reset() { samples.removeAll(keepingCapacity: true) }
}
