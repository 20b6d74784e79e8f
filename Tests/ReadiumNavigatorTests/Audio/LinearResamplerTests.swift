// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

@testable import ReadiumNavigator

@Suite struct LinearResamplerTests {
    @Test func doublingTheRateDoublesTheFramesAndKeepsATone() {
        let input = PCMFormat(sampleRate: 22_050, channelCount: 1)
        let output = PCMFormat(sampleRate: 44_100, channelCount: 2)
        let resampler = LinearResampler(from: input, to: output)
        let tone = (0..<22_050).map { Float(sin(2 * Double.pi * 440 * Double($0) / 22_050)) }
        tone.withUnsafeBufferPointer { resampler.push($0) }
        resampler.flush()
        var result = [Float](repeating: 0, count: 100_000 * 2)
        let frames = result.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
        #expect(abs(frames - 44_100) <= 2)
        // Zero crossings of the left channel: 440 Hz for one second gives about 880.
        let left = stride(from: 0, to: frames * 2, by: 2).map { result[$0] }
        let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) <= 4)
        #expect(result[0] == result[1])
    }

    @Test func stereoDownToMonoAveragesTheChannels() {
        let resampler = LinearResampler(from: PCMFormat(sampleRate: 8_000, channelCount: 2), to: PCMFormat(sampleRate: 8_000, channelCount: 1))
        let input: [Float] = [1, 0, 0.5, 0.5, 0, 1]
        input.withUnsafeBufferPointer { resampler.push($0) }
        resampler.flush()
        var result = [Float](repeating: 9, count: 3)
        let frames = result.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
        #expect(frames == 3)
        #expect(result == [0.5, 0.5, 0.5])
    }
}
