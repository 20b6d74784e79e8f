// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Applies the volume to rendered samples. Up to 1 it only scales; above 1 (a boost, up to `maximum`)
/// a peak limiter keeps every sample within ±`ceiling`, so a boost never clips: the gain follows a peak
/// envelope that jumps to each louder peak at once and lets go over `releaseSeconds`.
/// Allocation-free; one instance per stream of samples (the render thread's, a normalized track's).
public struct VolumeLimiter {
    /// The loudest volume a listener may ask for (twice the signal, +6 dB).
    public static let maximum = 2.0
    public static let ceiling: Float = 0.98
    static let releaseSeconds = 0.15

    /// `volume` within 0...maximum (NaN is 1).
    public static func clamp(_ volume: Double) -> Double {
        min(max(volume.isNaN ? 1 : volume, 0), maximum)
    }

    public init() {}

    private var envelope: Float = 0
    private var release: Float = 0
    private var releaseRate = 0

    /// Scales `count` interleaved samples of `channels` channels at `sampleRate` by `gain`, limiting
    /// peaks when the gain is above 1.
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, count: Int, channels: Int, sampleRate: Int, gain: Float) {
        if gain <= 1 {
            envelope = 0
            if gain != 1 { for index in 0..<count { samples[index] *= gain } }
            return
        }
        if releaseRate != sampleRate {
            releaseRate = sampleRate
            release = Float(exp(-1 / (Self.releaseSeconds * Double(max(sampleRate, 1)))))
        }
        var frame = 0
        while frame + channels <= count {
            var peak: Float = 0
            for channel in 0..<channels { peak = max(peak, abs(samples[frame + channel] * gain)) }
            envelope = max(peak, envelope * release)
            let limited = envelope > Self.ceiling ? gain * Self.ceiling / envelope : gain
            // (The clamp only absorbs the last bit of rounding: the envelope already holds the peak.)
            for channel in 0..<channels { samples[frame + channel] = min(max(samples[frame + channel] * limited, -Self.ceiling), Self.ceiling) }
            frame += channels
        }
    }
}
