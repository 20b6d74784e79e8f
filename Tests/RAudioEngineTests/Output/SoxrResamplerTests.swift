// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import Testing

@Suite struct SoxrResamplerTests {
    func convert(_ input: [Float], with resampler: SoxrResampler) -> [Float] {
        var output: [Float] = []
        var block = [Float](repeating: 0, count: 4096)
        func drain() {
            while true {
                let frames = block.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
                if frames == 0 { break }
                output.append(contentsOf: block[0..<(frames * resampler.outputFormat.channelCount)])
            }
        }
        let blockSamples = 1000 * resampler.inputFormat.channelCount
        for start in stride(from: 0, to: input.count, by: blockSamples) {
            input[start..<min(start + blockSamples, input.count)].withUnsafeBufferPointer { resampler.push($0) }
            drain()
        }
        resampler.flush()
        drain()
        return output
    }

    @Test func monoAt22050BecomesStereoAt44100WithSameTone() throws {
        let input = ToneAnalysis.sine(frequency: 440, sampleRate: 22_050, channels: 1, seconds: 1)
        let resampler = try SoxrResampler(from: PCMFormat(sampleRate: 22_050, channelCount: 1),
                                          to: PCMFormat(sampleRate: 44_100, channelCount: 2))
        let output = convert(input, with: resampler)
        let frames = output.count / 2
        #expect(abs(frames - input.count * 2) <= 4, "got \(frames) frames from \(input.count)")
        let left = ToneAnalysis.channel(0, of: output, channels: 2)
        let right = ToneAnalysis.channel(1, of: output, channels: 2)
        #expect(left == right)
        let frequency = try #require(ToneAnalysis.dominantFrequency(left, sampleRate: 44_100))
        #expect(abs(frequency - 440) < 2, "dominant frequency \(frequency) Hz")
        #expect(abs(ToneAnalysis.rms(left) - ToneAnalysis.rms(input)) < 0.02)
    }

    @Test func stereoDownmixAtSameRateAveragesChannels() throws {
        let resampler = try SoxrResampler(from: PCMFormat(sampleRate: 44_100, channelCount: 2),
                                          to: PCMFormat(sampleRate: 44_100, channelCount: 1))
        let output = convert([0.5, 0.25, -1, 0], with: resampler)
        #expect(output == [0.375, -0.5])
    }

    @Test func resetDropsBufferedAudio() throws {
        let resampler = try SoxrResampler(from: PCMFormat(sampleRate: 48_000, channelCount: 2),
                                          to: PCMFormat(sampleRate: 44_100, channelCount: 2))
        ToneAnalysis.sine(frequency: 440, sampleRate: 48_000, channels: 2, seconds: 0.2).withUnsafeBufferPointer { resampler.push($0) }
        resampler.reset()
        #expect(resampler.availableFrames == 0)
        resampler.flush()
        #expect(resampler.availableFrames == 0)
    }
}
