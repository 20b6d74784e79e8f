// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import Testing

struct PCMBufferDecoderTests {
    @Test func readsAllFramesThenEndsAndSeeksExactly() throws {
        let samples = (0..<10).map(Float.init)
        let decoder = PCMBufferDecoder(samples: samples, format: PCMFormat(sampleRate: 8000, channelCount: 2), href: "tts:test")
        #expect(decoder.frameCount == 5)
        var buffer = [Float](repeating: -1, count: 6)
        let first = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 3) }
        #expect(first == 3)
        #expect(buffer == [0, 1, 2, 3, 4, 5])
        let second = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 3) }
        #expect(second == 2)
        #expect(Array(buffer[0..<4]) == [6, 7, 8, 9])
        #expect(try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 3) } == 0)
        try decoder.seek(toFrame: 1)
        #expect(decoder.currentFrame == 1)
        _ = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 1) }
        #expect(Array(buffer[0..<2]) == [2, 3])
        try decoder.seek(toFrame: 99)
        #expect(decoder.currentFrame == 5)
        #expect(throws: AudioDecoderError.self) { try decoder.seek(toFrame: -1) }
    }

    @Test func wordAtFrameIsTheLastStartedWord() {
        let text = "one two"
        let words = TTSWordScanner.words(in: text)
        let utterance = SynthesizedUtterance(
            text: text, voice: TTSVoice(identifier: "x", name: "x", language: .init(code: "en")),
            format: PCMFormat(sampleRate: 100, channelCount: 1), samples: Array(repeating: 0, count: 100),
            wordBoundaries: [TTSWordBoundary(range: words[0].range, startFrame: 10), TTSWordBoundary(range: words[1].range, startFrame: 50)]
        )
        #expect(utterance.wordBoundary(atFrame: 5) == nil)
        #expect(utterance.wordBoundary(atFrame: 10)?.startFrame == 10)
        #expect(utterance.wordBoundary(atFrame: 49)?.startFrame == 10)
        #expect(utterance.wordBoundary(atFrame: 99)?.startFrame == 50)
    }
}
