// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Makes and measures test tones: pure Swift, no audio library involved.
enum ToneAnalysis {
    /// Interleaved sine samples, the same in every channel.
    static func sine(frequency: Double, sampleRate: Int, channels: Int, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate)))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        return samples
    }

    /// One channel of interleaved samples.
    static func channel<T>(_ channel: Int, of samples: [T], channels: Int) -> [T] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }

    /// The frequency of a tone from its rising zero crossings, interpolated between samples;
    /// nil when there are fewer than two crossings.
    static func dominantFrequency(_ samples: [Float], sampleRate: Int) -> Double? {
        var crossings: [Double] = []
        for index in 1..<max(samples.count, 1) where samples[index - 1] < 0 && samples[index] >= 0 {
            let fraction = Double(-samples[index - 1] / (samples[index] - samples[index - 1]))
            crossings.append(Double(index - 1) + fraction)
        }
        guard crossings.count >= 2, let first = crossings.first, let last = crossings.last, last > first else { return nil }
        return Double(crossings.count - 1) / ((last - first) / Double(sampleRate))
    }

    /// The range of samples from the first to the last whose magnitude passes `threshold`.
    static func audibleRange(_ samples: [Float], threshold: Float = 0.05) -> Range<Int>? {
        guard let first = samples.firstIndex(where: { abs($0) > threshold }),
              let last = samples.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return first..<(last + 1)
    }

    /// Root mean square level.
    static func rms(_ samples: [Float]) -> Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
    }
}
