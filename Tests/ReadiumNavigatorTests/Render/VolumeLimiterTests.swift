// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import ReadiumNavigator

/// The volume stage: exact scaling up to 1, a boost that never clips above it.
@Suite struct VolumeLimiterTests {
    static func sine(amplitude: Float, frames: Int, channels: Int = 2, rate: Int = 44100) -> [Float] {
        (0..<frames * channels).map { index in amplitude * Float(sin(2 * Double.pi * 440 * Double(index / channels) / Double(rate))) }
    }

    @Test func volumesUpToOneOnlyScale() {
        var limiter = VolumeLimiter()
        var samples = Self.sine(amplitude: 0.9, frames: 4410)
        let original = samples
        samples.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: $0.count, channels: 2, sampleRate: 44100, gain: 0.5) }
        #expect(zip(samples, original).allSatisfy { $0 == $1 * 0.5 })
    }

    @Test func aBoostOfAQuietSignalIsExactAndOfALoudOneNeverClips() {
        var limiter = VolumeLimiter()
        var quiet = Self.sine(amplitude: 0.3, frames: 4410)
        let original = quiet
        quiet.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: $0.count, channels: 2, sampleRate: 44100, gain: 2) }
        #expect(zip(quiet, original).allSatisfy { abs($0 - $1 * 2) < 1e-6 }, "0.6 peaks need no limiting")

        var loud = Self.sine(amplitude: 0.9, frames: 44100)
        loud.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: $0.count, channels: 2, sampleRate: 44100, gain: 2) }
        let peak = loud.map(abs).max() ?? 0
        #expect(peak <= VolumeLimiter.ceiling, "peak \(peak)")
        #expect(peak > VolumeLimiter.ceiling * 0.99, "the limited signal still reaches the ceiling")
        // Louder than the unboosted signal, not squashed to nothing.
        let rms = { (values: [Float]) in (values.map { $0 * $0 }.reduce(0, +) / Float(values.count)).squareRoot() }
        #expect(rms(loud) > rms(Self.sine(amplitude: 0.9, frames: 44100)))
    }

    @Test func volumesAreClampedToTwo() {
        #expect(VolumeLimiter.clamp(3) == 2)
        #expect(VolumeLimiter.clamp(-1) == 0)
        #expect(VolumeLimiter.clamp(.nan) == 1)
        #expect(VolumeLimiter.clamp(1.5) == 1.5)
    }
}
