// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import Testing

@Suite struct SonicSpeedProcessorTests {
    let format = PCMFormat(sampleRate: 44_100, channelCount: 2)

    /// Pushes `input` in blocks, pulls as it goes, flushes, and returns everything that came out.
    func process(_ input: [Float], speed: Double) throws -> [Float] {
        let processor = try #require(SonicSpeedProcessor(format: format, speed: speed))
        var output: [Float] = []
        var block = [Float](repeating: 0, count: 2048 * format.channelCount)
        func drain() {
            while true {
                let frames = block.withUnsafeMutableBufferPointer { processor.pull(into: $0) }
                if frames == 0 { break }
                output.append(contentsOf: block[0..<(frames * format.channelCount)])
            }
        }
        let blockSamples = 1024 * format.channelCount
        for start in stride(from: 0, to: input.count, by: blockSamples) {
            input[start..<min(start + blockSamples, input.count)].withUnsafeBufferPointer { processor.push($0) }
            drain()
        }
        processor.flush()
        drain()
        return output
    }

    @Test(arguments: [2.0, 0.5])
    func speedChangesDurationAndKeepsPitch(speed: Double) throws {
        let input = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 2)
        let output = try process(input, speed: speed)
        let expectedFrames = Double(input.count / 2) / speed
        let frames = Double(output.count / 2)
        #expect(abs(frames - expectedFrames) / expectedFrames < 0.02, "got \(frames) frames, expected ~\(expectedFrames)")
        let left = ToneAnalysis.channel(0, of: output, channels: 2)
        let frequency = try #require(ToneAnalysis.dominantFrequency(left, sampleRate: 44_100))
        #expect(abs(frequency - 440) / 440 < 0.02, "dominant frequency \(frequency) Hz")
    }

    @Test func normalSpeedPassesSamplesThroughBitExactly() throws {
        var input = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 0.5)
        for index in stride(from: 0, to: input.count, by: 7) { input[index] += 1e-7 * Float(index % 13) }
        let output = try process(input, speed: 1.0)
        #expect(output == input)
    }

    @Test func returningToNormalSpeedKeepsBufferedAudioInOrder() throws {
        let processor = try #require(SonicSpeedProcessor(format: format, speed: 2.0))
        let input = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 0.5)
        input.withUnsafeBufferPointer { processor.push($0) }
        processor.speed = 1.0
        let marker: [Float] = [0.25, -0.25]
        marker.withUnsafeBufferPointer { processor.push($0) }
        var output = [Float](repeating: 0, count: 44_100 * 2)
        let frames = output.withUnsafeMutableBufferPointer { processor.pull(into: $0) }
        #expect(frames > 5_000)
        #expect(Array(output[(frames - 1) * 2..<frames * 2]) == marker)
    }

    @Test func speedIsClampedToSupportedRange() throws {
        let processor = try #require(SonicSpeedProcessor(format: format, speed: 10))
        #expect(processor.speed == 3.0)
        processor.speed = 0.1
        #expect(processor.speed == 0.5)
    }
}
