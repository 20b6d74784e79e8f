// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared
import Synchronization

/// The gains `--normalize` applies, by track href: filled in the background by the loudness analysis
/// (or from the store's cache), read when a track opens. Thread-safe.
public final class LoudnessGains: Sendable {
    private let gains = Mutex<[String: Double]>([:])

    public init() {}

    public func set(_ gain: Double, for href: String) {
        gains.withLock { $0[href] = gain }
    }

    public func gain(for href: String) -> Double? {
        gains.withLock { $0[href] }
    }
}

/// Opens decoders through `base` and scales each track by its loudness gain, when one is known by the
/// time the track opens (a track opened before its analysis finished plays as it is).
public struct NormalizingDecoderFactory: AudioDecoderFactory {
    let base: any AudioDecoderFactory
    let gains: LoudnessGains

    public init(base: any AudioDecoderFactory, gains: LoudnessGains) {
        self.base = base
        self.gains = gains
    }

    public func makeDecoder(for resource: any Resource, mediaType: MediaType?) throws(AudioDecoderError) -> any AudioDecoder {
        let decoder = try base.makeDecoder(for: resource, mediaType: mediaType)
        guard let gain = gains.gain(for: resource.href), gain.isFinite, gain != 1 else { return decoder }
        return GainDecoder(decoder, gain: Float(gain))
    }
}

/// A decoder whose samples are scaled by a constant gain; above 1, peaks are limited (`VolumeLimiter`)
/// so that the gain never clips.
final class GainDecoder: AudioDecoder {
    private let inner: any AudioDecoder
    let gain: Float
    private var limiter = VolumeLimiter()

    init(_ inner: any AudioDecoder, gain: Float) {
        self.inner = inner
        self.gain = gain
    }

    var format: PCMFormat { inner.format }
    var frameCount: Int64? { inner.frameCount }
    var currentFrame: Int64 { inner.currentFrame }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let frames = try inner.read(into: buffer, maxFrames: maxFrames)
        limiter.process(buffer, count: frames * format.channelCount, channels: format.channelCount, sampleRate: format.sampleRate, gain: gain)
        return frames
    }

    func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        try inner.seek(toFrame: frame)
    }
}
