// SPDX-License-Identifier: GPL-3.0-or-later
import CEBUR128
import Foundation
import ReadiumNavigator
import ReadiumShared

/// A track's loudness, EBU R 128: integrated loudness in LUFS and sample peak (linear, 1 = full scale).
public struct TrackLoudness: Sendable, Hashable {
    public var integrated: Double
    public var samplePeak: Double

    public init(integrated: Double, samplePeak: Double) {
        self.integrated = integrated
        self.samplePeak = samplePeak
    }

    /// The gain that brings the track to `target` LUFS, from −24 to +12 dB; 1 for silence. (Above 1
    /// the peaks it would push past full scale are limited where it is applied.)
    public func gain(toward target: Double) -> Double {
        guard integrated.isFinite, integrated > -70 else { return 1 }
        return pow(10, min(max(target - integrated, -24), 12) / 20)
    }
}

/// Measures a track's loudness with libebur128 by decoding it whole (raudio's own decoders).
public enum LoudnessMeter {
    public static func measure(_ resource: any Resource, cancellation: (() -> Bool)? = nil) throws -> TrackLoudness {
        let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
        let channels = decoder.format.channelCount
        guard let state = ebur128_init(UInt32(channels), UInt(decoder.format.sampleRate), Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)) else {
            throw AudioDecoderError(.corrupt, href: resource.href, message: "libebur128 could not start a measurement")
        }
        var owned: UnsafeMutablePointer<ebur128_state>? = state
        defer { ebur128_destroy(&owned) }
        let frames = 8192
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames * channels)
        defer { buffer.deallocate() }
        while true {
            if cancellation?() == true { throw CancellationError() }
            let read = try decoder.read(into: buffer, maxFrames: frames)
            if read == 0 { break }
            guard ebur128_add_frames_float(state, buffer, read) == 0 else {
                throw AudioDecoderError(.corrupt, href: resource.href, message: "libebur128 refused the samples")
            }
        }
        var loudness = 0.0
        guard ebur128_loudness_global(state, &loudness) == 0 else {
            throw AudioDecoderError(.corrupt, href: resource.href, message: "libebur128 could not compute the loudness")
        }
        var peak = 0.0
        for channel in 0..<channels {
            var value = 0.0
            if ebur128_sample_peak(state, UInt32(channel), &value) == 0 { peak = max(peak, value) }
        }
        return TrackLoudness(integrated: loudness, samplePeak: peak)
    }
}
