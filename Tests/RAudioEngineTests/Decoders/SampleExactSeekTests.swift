// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// Seeking lands on the exact sample: after a seek, the next 1024 frames equal those of a straight
/// decode from the start.
@Suite("Sample-exact seeking", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct SampleExactSeekTests {
    static let files = DecoderTestSupport.corpusAudioFiles(in: ["mp3-speech", "ogg-speech"])
        + ["audio/ogg-edge/Voice__test.ogg", "audio/mp3-edge/tinytag__vbr_xing_header.mp3"]

    @Test("Random seeks give the same frames as decoding from the start", arguments: files)
    func randomSeeksMatchStraightDecoding(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        let factory = RAudioDecoderFactory()
        let straight = DecoderTestSupport.decodeAll(try factory.makeDecoder(for: resource, mediaType: nil))
        try #require(straight.error == nil)
        try assertSeeksAreExact(decoder: try factory.makeDecoder(for: resource, mediaType: nil), reference: straight, seed: 42)
    }

    @Test("Seeking past the end clamps to the end and reading there gives nothing")
    func seekPastEndClamps() throws {
        for path in ["audio/mp3-speech/w3c-epub-tests__pub-cmt-mp3__001.mp3", "audio/ogg-edge/tinytag__test.ogg"] {
            let decoder = try RAudioDecoderFactory().makeDecoder(for: try DecoderTestSupport.resource(path), mediaType: nil)
            try decoder.seek(toFrame: 100_000_000)
            let end = try #require(decoder.frameCount)
            #expect(decoder.currentFrame == end, "\(path)")
            #expect(try DecoderTestSupport.readFrames(decoder, count: 16).isEmpty)
            try decoder.seek(toFrame: 0)
            #expect(try DecoderTestSupport.readFrames(decoder, count: 16).count == 16 * decoder.format.channelCount)
        }
    }
}

/// Seeks `decoder` to several random frames (and to 0 and near the end) and compares 1024 frames.
///
/// `tolerance` is the largest difference allowed between samples at the same position: decoders whose
/// state after a seek converges to, but not bit for bit onto, that of a straight decode (Opus) need more
/// than 1e-6; a one-sample misplacement of speech or a tone differs by orders of magnitude more.
func assertSeeksAreExact(decoder: any AudioDecoder, reference: DecodedAudio, seed: UInt64, tolerance: Float = 1e-6, sourceLocation: SourceLocation = #_sourceLocation) throws {
    var generator = SplitMix64(seed: seed)
    let channels = reference.format.channelCount
    let total = reference.frameCount
    var targets = (0..<8).map { _ in Int.random(in: 0..<max(1, total), using: &generator) }
    targets += [0, max(0, total - 100)]
    for target in targets {
        try decoder.seek(toFrame: Int64(target))
        #expect(decoder.currentFrame == Int64(target), sourceLocation: sourceLocation)
        let got = try DecoderTestSupport.readFrames(decoder, count: 1024)
        let expectedEnd = min(total, target + 1024) * channels
        let expected = Array(reference.samples[(target * channels)..<expectedEnd])
        // Same position: the samples match. libmpg123 primes its synthesis filter from a few frames
        // earlier after a seek, which can change the last bits of a float (~1e-8), never more; a
        // one-sample misplacement would differ by far more than the tolerance.
        #expect(got.count == expected.count, "seek to frame \(target) of \(total): \(got.count / channels) frames read", sourceLocation: sourceLocation)
        let largestDifference = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(largestDifference <= tolerance, "seek to frame \(target) of \(total): samples differ by up to \(largestDifference)", sourceLocation: sourceLocation)
    }
}
