// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import ReadiumLCP

@Suite("LCP decryptor", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct LCPDecryptorTests {
    private func decryptor(_ package: String, entry: String, passphrase: String) throws -> (LCPDecryptor, CountingResource) {
        let encrypted = CountingResource(DataResource(href: entry, data: try LCPTestVectors.entry(entry, of: package)))
        let decryptor = LCPDecryptor(
            base: encrypted, encryption: LCPResourceEncryption(),
            decryptor: try LCPTestVectors.decryptor(of: package, passphrase: passphrase))
        return (decryptor, encrypted)
    }

    /// Every range compared with the whole file decrypted at once (the client's own whole-value decryption).
    private func expectRangesDecryptExactly(
        _ resource: LCPDecryptor, whole: Data, ranges: [Range<UInt64>], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for range in ranges {
            let expected = whole.subdata(in: Int(min(range.lowerBound, UInt64(whole.count)))..<Int(min(range.upperBound, UInt64(whole.count))))
            let got = try resource.read(range: range)
            #expect(got == expected, "range \(range)", sourceLocation: sourceLocation)
        }
    }

    private func randomRanges(count: Int, length: UInt64, seed: UInt64) -> [Range<UInt64>] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let start = UInt64.random(in: 0..<length, using: &generator)
            let size = UInt64.random(in: 0...min(70_000, length - start + 40), using: &generator)
            return start..<(start + size)
        }
    }

    /// A: the MP3 (random padding `74 84 03`) decrypts to the published SHA-256; its length comes from the last
    /// two blocks alone; 300 random ranges decrypt exactly.
    @Test func audiotestTrackDecryptsToTheExpectedMP3() throws {
        let (resource, encrypted) = try decryptor("audiotest.lcpa", entry: "audio/gtr-jazz.mp3", passphrase: "mmenu")
        #expect(try resource.length() == 152_381)
        #expect(encrypted.bytesRead == 32)
        let whole = try resource.read(range: nil)
        #expect(whole.count == 152_381)
        #expect(LCPTestVectors.sha256Hex(whole) == "078319fa8a6f02a4e3ae94bde7759ee700e048898651277b3f72fdfba586bab4")
        let client = try LCPTestVectors.decryptor(of: "audiotest.lcpa", passphrase: "mmenu")
        #expect(client.decrypt(try LCPTestVectors.entry("audio/gtr-jazz.mp3", of: "audiotest.lcpa")) == whole)
        try expectRangesDecryptExactly(resource, whole: whole, ranges: randomRanges(count: 300, length: 152_381, seed: 48))
    }

    /// B: swift-toolkit's ranges of `LCPDecryptorTests.swift`, then 300 random ones.
    @Test func daisyRangesDecryptExactly() throws {
        let (resource, _) = try decryptor("daisy.lcpdf", entry: "publication.pdf", passphrase: "test")
        #expect(try resource.length() == 819_856)
        let whole = try #require(
            try LCPTestVectors.decryptor(of: "daisy.lcpdf", passphrase: "test")
                .decrypt(LCPTestVectors.entry("publication.pdf", of: "daisy.lcpdf")))
        #expect(whole.count == 819_856)
        #expect(LCPTestVectors.sha256Hex(whole) == "761c8c0430a542abb7e6ce011d3572f55faab29a961e74edf2fbe832bd624851")
        #expect(whole.starts(with: Data("%PDF-1.6".utf8)))
        let readiumRanges: [Range<UInt64>] = [
            0..<2048, 817_152..<819_200, 819_200..<819_856, 0..<16384, 819_792..<819_856, 819_565..<819_856,
        ]
        try expectRangesDecryptExactly(resource, whole: whole, ranges: readiumRanges)
        try expectRangesDecryptExactly(resource, whole: whole, ranges: randomRanges(count: 300, length: 819_856, seed: 4848))
        #expect(try resource.read(range: 900_000..<900_100).isEmpty)
    }

    /// A read decrypts only the blocks it covers and the block before: never the whole file.
    @Test func aRangeReadsOnlyTheBlocksItNeeds() throws {
        let (resource, encrypted) = try decryptor("daisy.lcpdf", entry: "publication.pdf", passphrase: "test")
        _ = try resource.length()
        encrypted.reset()
        let data = try resource.read(range: 400_005..<400_105)
        #expect(data.count == 100)
        // 400_005 is in block 25_000, 400_104 in block 25_006: the IV block then 7 blocks.
        #expect(encrypted.bytesRead == 8 * 16)
    }

    /// A decoder's reader goes through one read session, which keeps the base's own session open (one descriptor,
    /// as for a clear track) and decrypts each read with one bulk call: the whole PDF read in odd-sized chunks,
    /// then 300 reads at random offsets, give the clear bytes, and each read fetches only its blocks and the IV
    /// block before them.
    @Test func aReadSessionGivesTheClearBytesInOddChunksAndAtRandomOffsets() throws {
        let (resource, encrypted) = try decryptor("daisy.lcpdf", entry: "publication.pdf", passphrase: "test")
        let expected = try #require(
            try LCPTestVectors.decryptor(of: "daisy.lcpdf", passphrase: "test")
                .decrypt(LCPTestVectors.entry("publication.pdf", of: "daisy.lcpdf")))
        let session = try resource.openReadSession()
        #expect(encrypted.sessionsOpened == 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 80_000, alignment: 1)
        defer { buffer.deallocate() }
        func read(_ count: Int, at offset: UInt64) throws -> Data {
            let got = try session.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
            return Data(buffer[0..<got])
        }

        var sequential = Data()
        let sizes = [1, 7, 15, 16, 17, 31, 33, 4093, 65_536, 65_537, 79_999]
        var index = 0
        while true {
            let chunk = try read(sizes[index % sizes.count], at: UInt64(sequential.count))
            if chunk.isEmpty { break }
            sequential.append(chunk)
            index += 1
        }
        #expect(sequential == expected)

        for range in randomRanges(count: 300, length: UInt64(expected.count), seed: 480) {
            let count = min(Int(range.count), buffer.count)
            let start = Int(min(range.lowerBound, UInt64(expected.count)))
            let end = min(start + count, expected.count)
            #expect(try read(count, at: range.lowerBound) == expected.subdata(in: start..<end), "range \(range)")
        }
        #expect(try read(100, at: UInt64(expected.count)).isEmpty)

        encrypted.reset()
        #expect(try read(100, at: 400_005) == expected.subdata(in: 400_005..<400_105))
        // 400_005 is in block 25_000, 400_104 in block 25_006: the IV block then 7 blocks.
        #expect(encrypted.bytesRead == 8 * 16)
        #expect(encrypted.sessionsOpened == 1)
    }

    /// D: an EPUB chapter (PKCS#7-like padding) decrypts byte-identical to the expected XHTML.
    @Test func mobyDickChapterOneDecryptsByteIdentical() throws {
        let encrypted = DataResource(
            href: "OPS/chapter_001.xhtml",
            data: try LCPTestVectors.entry("OPS/chapter_001.xhtml", of: "moby-dick-20120118-lcp.epub"))
        #expect(try encrypted.length() == 13_904)
        let resource = LCPDecryptor(
            base: encrypted, encryption: LCPResourceEncryption(),
            decryptor: try LCPTestVectors.decryptor(
                of: "moby-dick-20120118-lcp.epub", passphrase: LCPTestVectors.mobyDickPassphrase,
                anchors: LCPTestVectors.anchorsWithMobyDickRoot()))
        let expected = try Data(contentsOf: LCPTestVectors.file("moby-dick-20120118-chapter_001.expected.xhtml"))
        #expect(try resource.read() == expected)
        #expect(LCPTestVectors.sha256Hex(expected) == "13ae04e21177babedfde721577615a638341f963731ea936bbb8c3862f57cdfc")
    }

    /// Deflate-then-encrypt (`Compression Method="8"`): inflated after decryption, to `originalLength`.
    @Test func aDeflatedResourceIsInflatedAfterDecryption() throws {
        let context = try LCPTestVectors.context(of: "audiotest.lcpa", passphrase: "mmenu")
        let plain = Data((0..<40_000).map { index in UInt8(truncatingIfNeeded: index % 251 + index / 977) })
        var generator = SplitMix64(seed: 7)
        let encrypted = try LCPTestVectors.encrypt(LCPTestVectors.deflate(plain), key: context.contentKey, generator: &generator)
        let decryptor = LCPContentDecryptor(client: BasicProfileLCPClient(), context: context)
        let resource = LCPDecryptor(
            base: DataResource(href: "a.xhtml", data: encrypted),
            encryption: LCPResourceEncryption(isCompressed: true, originalLength: UInt64(plain.count)), decryptor: decryptor)
        #expect(try resource.length() == UInt64(plain.count))
        #expect(try resource.read() == plain)
        #expect(try resource.read(range: 12_345..<12_400) == plain.subdata(in: 12_345..<12_400))
        let lying = LCPDecryptor(
            base: DataResource(href: "a.xhtml", data: encrypted),
            encryption: LCPResourceEncryption(isCompressed: true, originalLength: 10), decryptor: decryptor)
        #expect(throws: ResourceError.self) { _ = try lying.read() }
    }

    /// Deflate-then-encrypt is inflated as it is read, never held whole: a range near the start decrypts only the
    /// first chunk of ciphertext, sequential reads in odd sizes go on with one stream (started again only for a read
    /// before where it stands), random ranges give the clear bytes, and without `originalLength` the length is
    /// counted by one pass that keeps nothing.
    @Test func aDeflatedResourceIsInflatedAsItIsReadNeverHeldWhole() throws {
        let context = try LCPTestVectors.context(of: "audiotest.lcpa", passphrase: "mmenu")
        var generator = SplitMix64(seed: 60)
        let letters = Array("abcdefghijklmnop ".utf8)
        let plain = Data((0..<3_000_000).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
        let encrypted = try LCPTestVectors.encrypt(LCPTestVectors.deflate(plain), key: context.contentKey, generator: &generator)
        let decryptor = LCPContentDecryptor(client: BasicProfileLCPClient(), context: context)
        let counting = CountingResource(DataResource(href: "big.xhtml", data: encrypted))
        let resource = LCPDecryptor(
            base: counting, encryption: LCPResourceEncryption(isCompressed: true, originalLength: UInt64(plain.count)), decryptor: decryptor)
        #expect(try resource.read(range: 100..<200) == plain.subdata(in: 100..<200))
        #expect(counting.bytesRead < UInt64(encrypted.count) / 8, "read \(counting.bytesRead) of \(encrypted.count) encrypted bytes for 100 bytes")
        #expect(resource.heldPlaintextBytes == 0)

        let session = try resource.openReadSession()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 70_000, alignment: 1)
        defer { buffer.deallocate() }
        var sequential = Data()
        let sizes = [1, 17, 4093, 65_536, 65_537, 69_999]
        var index = 0
        while true {
            let count = try session.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<sizes[index % sizes.count]]), at: UInt64(sequential.count))
            if count == 0 { break }
            sequential.append(contentsOf: buffer[0..<count])
            index += 1
        }
        #expect(sequential == plain)
        #expect(resource.inflationStarts == 1, "the stream started \(resource.inflationStarts) times for one read then one pass in order")
        #expect(resource.heldPlaintextBytes == 0)
        for range in randomRanges(count: 30, length: UInt64(plain.count), seed: 61) {
            let start = Int(min(range.lowerBound, UInt64(plain.count)))
            let end = Int(min(range.upperBound, UInt64(plain.count)))
            #expect(try resource.read(range: range) == plain.subdata(in: start..<end), "range \(range)")
        }

        let unsized = LCPDecryptor(
            base: DataResource(href: "big.xhtml", data: encrypted), encryption: LCPResourceEncryption(isCompressed: true), decryptor: decryptor)
        #expect(try unsized.length() == UInt64(plain.count))
        #expect(try unsized.read(range: 2_999_900..<3_000_000) == plain.subdata(in: 2_999_900..<3_000_000))
        #expect(unsized.heldPlaintextBytes == 0)
    }

    /// Every padding length 1...16 (random pad bytes, as the real licences write them).
    @Test func everyW3CPaddingLengthIsRemoved() throws {
        let context = try LCPTestVectors.context(of: "audiotest.lcpa", passphrase: "mmenu")
        var generator = SplitMix64(seed: 16)
        for size in 32..<64 {
            let plain = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let encrypted = try LCPTestVectors.encrypt(plain, key: context.contentKey, generator: &generator)
            let resource = LCPDecryptor(
                base: DataResource(href: "x", data: encrypted), encryption: LCPResourceEncryption(),
                decryptor: LCPContentDecryptor(client: BasicProfileLCPClient(), context: context))
            #expect(try resource.length() == UInt64(size))
            #expect(try resource.read() == plain)
        }
    }
}
