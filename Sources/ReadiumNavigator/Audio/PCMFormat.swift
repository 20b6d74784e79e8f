// SPDX-License-Identifier: GPL-3.0-or-later
/// The shape of PCM audio flowing through the engine.
///
/// Samples are always 32-bit floats in [-1, 1], interleaved by channel (L R L R ... for stereo).
/// A *frame* is one sample per channel; positions and lengths are counted in frames.
public struct PCMFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second, for example 44 100.
    public var sampleRate: Int
    /// Interleaved channels per frame: 1 (mono) or 2 (stereo); more are accepted.
    public var channelCount: Int

    public init(sampleRate: Int, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// Converts a frame count to seconds in this format.
    public func seconds(ofFrames frames: Int64) -> Double {
        Double(frames) / Double(sampleRate)
    }

    /// Converts seconds to the nearest frame in this format.
    public func frames(ofSeconds seconds: Double) -> Int64 {
        Int64((seconds * Double(sampleRate)).rounded())
    }

    public var description: String { "\(sampleRate) Hz, \(channelCount) ch" }
}
