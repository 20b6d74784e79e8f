// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// Every audio file of the corpus goes through `RAudioDecoderFactory` and is compared with a reference
/// decoder (the `mpg123` and `oggdec` tools) run at test time.
@Suite("Decoding the audio corpus", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct CorpusDecodingTests {
    static let speechFiles = DecoderTestSupport.corpusAudioFiles(in: ["mp3-speech", "ogg-speech"])
    static let edgeFiles = DecoderTestSupport.corpusAudioFiles(in: ["mp3-edge", "ogg-edge"])
    static let opusFiles = DecoderTestSupport.corpusAudioFiles(in: ["opus"])

    @Test("Speech files decode to the reference tool's format, length and samples", arguments: speechFiles)
    func speechFileDecodesLikeTheReferenceTool(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        #expect(decoded.error == nil)
        let reference = try #require(try DecoderTestSupport.referenceDecode(resource.url))
        #expect(decoded.format == reference.format)
        #expect(decoded.frameCount == reference.frameCount, "decoded frames vs the reference tool's")
        let frameCount = try #require(decoder.frameCount ?? {
            (decoder as? MPG123Decoder)?.waitForFrameIndex()
            return decoder.frameCount
        }())
        let fiftyMilliseconds = Int64(decoded.format.sampleRate / 20)
        #expect(abs(frameCount - Int64(reference.frameCount)) <= fiftyMilliseconds, "frameCount \(frameCount) vs reference \(reference.frameCount)")
        #expect(decoder.currentFrame == Int64(decoded.frameCount))
        // mpg123 writes the same floats; oggdec writes 16-bit, so allow its rounding.
        let tolerance: Float = path.hasSuffix(".mp3") ? 1e-6 : 1.5 / 32768
        let count = min(decoded.samples.count, reference.samples.count)
        var worst: Float = 0
        for index in 0..<count {
            let expected = max(-1, min(reference.samples[index], 32767 / 32768))
            let actual = max(-1, min(decoded.samples[index], 32767 / 32768))
            worst = max(worst, abs(actual - expected))
        }
        #expect(worst <= tolerance, "largest sample difference \(worst)")
    }

    @Test("Broken and unusual files decode (matching the reference) or fail with a clear error", arguments: edgeFiles)
    func edgeFileDecodesOrFailsClearly(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        let decoded: DecodedAudio
        do {
            let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
            decoded = DecoderTestSupport.decodeAll(decoder)
        } catch {
            #expect([.corrupt, .trackUnsupported].contains(error.code))
            #expect(error.href == path)
            #expect(!error.message.isEmpty)
            print("\(path): refused: \(error.code.rawValue): \(error.message)")
            return
        }
        if let error = decoded.error {
            #expect(error.code == .corrupt)
            #expect(error.href == path)
            print("\(path): \(decoded.frameCount) frames, then \(error.code.rawValue): \(error.message)")
            return
        }
        print("\(path): \(decoded.frameCount) frames at \(decoded.format)")
        // Where the reference tool decodes the file too, we must agree with it on the length.
        if let reference = try DecoderTestSupport.referenceDecode(resource.url), reference.frameCount > 0 {
            #expect(decoded.format == reference.format)
            #expect(decoded.frameCount == reference.frameCount)
        }
    }

    @Test("Opus decodes through FFmpeg", arguments: opusFiles)
    func opusDecodesThroughFFmpeg(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: .ogg)
        #expect(decoder is FFmpegDecoder)
        #expect(decoder.format.sampleRate == 48000)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        #expect(decoded.error == nil)
        #expect(decoded.frameCount > 48000 / 2)
    }
}
