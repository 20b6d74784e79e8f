// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Synchronization
import Testing
@testable import RAudioEngine

/// A resource that remembers how many bytes were read, and can be watched for deallocation.
final class CountingResource: Resource {
    let base: TestFileResource
    let bytesRead = Atomic<Int>(0)
    let delayPerRead: Double
    /// When set, every read fails (an I/O error part-way).
    let failing = Atomic<Bool>(false)
    var href: String { base.href }
    var isRandomAccessCheap: Bool { true }

    init(url: URL, delayPerRead: Double = 0) {
        base = TestFileResource(url: url)
        self.delayPerRead = delayPerRead
    }

    func length() throws(ResourceError) -> UInt64 { try base.length() }

    func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        if failing.load(ordering: .relaxed) { throw ResourceError(.io, href: href, message: "simulated read failure") }
        if delayPerRead > 0 { Thread.sleep(forTimeInterval: delayPerRead) }
        let data = try base.read(range: range)
        bytesRead.add(data.count, ordering: .relaxed)
        return data
    }
}

@Suite("MP3 decoding with libmpg123")
struct MPG123DecoderTests {
    /// Makes a 60 s stereo 440 Hz MP3 encoded VBR without a Xing/LAME tag (`lame -V4 -t`).
    static func makeUntaggedVBR(in directory: URL, seconds: Int = 60) throws -> URL {
        try makeVBR(in: directory, seconds: seconds, tagged: false)
    }

    /// Makes a stereo sweep encoded `lame -V4`, with (`tagged`) or without (`-t`) a Xing/LAME tag.
    /// LAME's VBR frames reach up to ~8 frames back into the bit reservoir here.
    static func makeVBR(in directory: URL, seconds: Int = 60, tagged: Bool) throws -> URL {
        let wav = directory.appendingPathComponent("tone.wav")
        let mp3 = directory.appendingPathComponent(tagged ? "tagged-vbr.mp3" : "untagged-vbr.mp3")
        // A sweep rather than a pure tone, so the VBR frame sizes really vary.
        try #require(try DecoderTestSupport.run("sox", ["-n", "-r", "44100", "-c", "2", wav.path, "synth", "\(seconds)", "sine", "200-4000", "vol", "0.5"]) == 0)
        try #require(try DecoderTestSupport.run("lame", ["--quiet", "-V4"] + (tagged ? [] : ["-t"]) + [wav.path, mp3.path]) == 0)
        return mp3
    }

    @Test func untaggedVBRBecomesExactAfterTheBackgroundScanAndSeeksStayExact() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp3 = try Self.makeUntaggedVBR(in: directory)
        let reference = try #require(try DecoderTestSupport.referenceDecode(mp3))

        let decoder = try MPG123Decoder(resource: TestFileResource(url: mp3))
        // No header gives the length: unknown (not a guess) until the scan is adopted.
        if !decoder.hasAdoptedFrameIndex { #expect(decoder.frameCount == nil || decoder.frameCount == Int64(reference.frameCount)) }
        decoder.waitForFrameIndex()
        #expect(decoder.hasAdoptedFrameIndex)
        #expect(decoder.frameCount == Int64(reference.frameCount))

        let straight = DecoderTestSupport.decodeAll(try MPG123Decoder(resource: TestFileResource(url: mp3)))
        #expect(straight.samples.count == reference.samples.count)
        #expect(straight.samples == reference.samples, "the library decodes as the mpg123 tool does")
        try assertSeeksAreExact(decoder: decoder, reference: straight, seed: 7)
    }

    /// The root cause of inexact VBR seeks: libmpg123 refills the Layer III bit reservoir with only
    /// `MPG123_PREFRAMES` (default 4) frames before a seek target, and LAME's VBR frames reach further
    /// back, so several frames after a seek decoded as near-silence (off by ~0.5). The decoder now
    /// sets enough preframes; with libmpg123's default the same seeks are wrong again.
    @Test(arguments: [false, true])
    func vbrSeeksRefillTheWholeBitReservoir(tagged: Bool) throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp3 = try Self.makeVBR(in: directory, tagged: tagged)
        let straight = DecoderTestSupport.decodeAll(try MPG123Decoder(resource: TestFileResource(url: mp3)))
        try #require(straight.error == nil)

        let decoder = try MPG123Decoder(resource: TestFileResource(url: mp3))
        #expect(decoder.seekPreframes == 9, "MPEG-1 44.1 kHz stereo needs 8 reservoir frames plus one")
        try assertSeeksAreExact(decoder: decoder, reference: straight, seed: 11)

        // libmpg123's default: the fixture really exercises the deep reservoir.
        try decoder.setSeekPreframes(MPEGBitReservoir.defaultPreframes)
        let target = 44_443
        try decoder.seek(toFrame: Int64(target))
        let got = try DecoderTestSupport.readFrames(decoder, count: 1024)
        let expected = straight.samples[(target * 2)..<((target + 1024) * 2)]
        let largestDifference = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(largestDifference > 0.1, "with 4 preframes the first frames after a seek lack their reservoir")
    }

    /// With a trustworthy LAME header the exact length is known, so no background scan reads the file
    /// a second time: the frame index is built from the frames the decoder reads, and a first seek far
    /// ahead reads only up to its target. Seeks stay sample-exact, forwards, backwards and at the end.
    @Test func taggedFileIsReadOnceAndSeeksExactlyFromTheFramesItReads() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp3 = try Self.makeVBR(in: directory, seconds: 120, tagged: true)
        let fileLength = Int(try TestFileResource(url: mp3).length())
        let straight = DecoderTestSupport.decodeAll(try MPG123Decoder(resource: TestFileResource(url: mp3)))
        try #require(straight.error == nil)

        let resource = CountingResource(url: mp3)
        let decoder = try MPG123Decoder(resource: resource)
        #expect(!decoder.hasBackgroundScan)
        #expect(decoder.frameCount == Int64(straight.frameCount))
        _ = try DecoderTestSupport.readFrames(decoder, count: 44_100)
        // Time a background pass over the whole file would have had (it takes a few ms here).
        Thread.sleep(forTimeInterval: 0.3)
        let afterOneSecond = resource.bytesRead.load(ordering: .relaxed)
        #expect(afterOneSecond < fileLength / 4, "read \(afterOneSecond) of \(fileLength) bytes to play 1 s")

        // The first seek to the middle reads about up to there, not the whole file.
        let middle = straight.frameCount / 2
        try decoder.seek(toFrame: Int64(middle))
        let got = try DecoderTestSupport.readFrames(decoder, count: 4096)
        #expect(got == Array(straight.samples[(middle * 2)..<((middle + 4096) * 2)]))
        let afterSeek = resource.bytesRead.load(ordering: .relaxed)
        #expect(afterSeek < fileLength * 3 / 4, "read \(afterSeek) of \(fileLength) bytes to seek to the middle")

        try assertSeeksAreExact(decoder: decoder, reference: straight, seed: 5)
        #expect(!decoder.hasAdoptedFrameIndex, "no scan was adopted: the seeks used the decoder's own index")
    }

    @Test func closingTheDecoderStopsTheBackgroundScanAndReleasesEverything() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp3 = try Self.makeUntaggedVBR(in: directory, seconds: 600)
        let fileLength = try TestFileResource(url: mp3).length()
        // Slow reads: a full scan would need ~150 of them.
        var resource: CountingResource? = CountingResource(url: mp3, delayPerRead: 0.005)
        weak let watched = resource
        var decoder: MPG123Decoder? = try MPG123Decoder(resource: resource!)
        resource = nil
        decoder = nil
        _ = decoder
        // The scan thread notices the cancellation at its next read and frees its handle and reader.
        var waited = 0
        while watched != nil, waited < 1000 {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
        }
        #expect(watched == nil, "the resource is still referenced: a reader or handle leaked")
        if let watched { #expect(UInt64(watched.bytesRead.load(ordering: .relaxed)) < fileLength) }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func openFailureReleasesTheReader() throws {
        var resource: CountingResource? = CountingResource(url: try Corpus.file("audio/mp3-edge/Voice__defect.mp3"))
        weak let watched = resource
        #expect(throws: AudioDecoderError.self) { try MPG123Decoder(resource: resource!) }
        #expect(throws: AudioDecoderError.self) { try VorbisDecoder(resource: resource!) }
        resource = nil
        // The MP3 decoder's scan thread never started; the vorbis open failure released its own retain.
        #expect(watched == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func readErrorPartWayReturnsWhatDecodedThenThrowsUnreadable() throws {
        let url = try Corpus.file("audio/mp3-speech/w3c-epub-tests__mol-navigation__ch1.mp3")
        let resource = CountingResource(url: url)
        let decoder = try MPG123Decoder(resource: resource)
        decoder.waitForFrameIndex()
        let first = try DecoderTestSupport.readFrames(decoder, count: 100_000)
        #expect(first.count == 100_000)
        resource.failing.store(true, ordering: .relaxed)
        let decoded = DecoderTestSupport.decodeAll(decoder)
        #expect(decoded.error?.code == .trackUnreadable)
        #expect(decoded.error?.href == resource.href)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func lameGaplessFileReportsItsExactLengthBeforeAnyScan() throws {
        let path = "audio/mp3-speech/w3c-epub-tests__mol-navigation__ch1.mp3"
        let resource = try DecoderTestSupport.resource(path)
        let reference = try #require(try DecoderTestSupport.referenceDecode(resource.url))
        let decoder = try MPG123Decoder(resource: resource)
        #expect(decoder.frameCount == Int64(reference.frameCount))
    }
}
