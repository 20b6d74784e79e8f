// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ZIPFoundation

/// A protected resource read in clear: only the 16-byte blocks a read covers are decrypted (AES-256-CBC, the
/// block before as IV), so that play, seek and range requests never decrypt a whole track.
///
/// A decoder reads through `openReadSession()`: the base resource's own session stays open (one descriptor for a
/// file or a STORED ZIP entry, as for a clear track) and each read fetches its ciphertext with the IV block
/// before it into one buffer the session keeps, then decrypts it with one bulk AES-CBC call (swift-crypto 4's
/// `AES._CBC`, BoringSSL's `AES_cbc_encrypt`). The decoders' reader asks for 64 KiB at a time
/// (`ResourceReader.blockSize`), so the key schedule and the IV block are paid once per 64 KiB. There is no
/// read-ahead beyond what a read asks for: a seek in a remote package still reads at most the IV block and the
/// two partial blocks around its range beyond what the clear file needs.
///
/// The length in clear comes from the last two blocks alone (the last byte of the last block is the W3C padding
/// length), or from `originalLength`. A resource DEFLATE-compressed before encryption is inflated as it is read
/// (`LCPStreamingInflater`): its compressed bytes are decrypted by the blocks each 64 KiB step needs and go
/// through one zlib stream kept between reads, which starts again from the beginning for a read before where it
/// stands; only the stream's state and one chunk are held, never the whole resource. Nothing is written to disk.
/// A client whose context cannot decrypt by blocks gets each resource decrypted (and inflated) whole, kept in
/// memory while the resource lives. Safe to call from any thread.
public final class LCPDecryptor: Resource, @unchecked Sendable {
    public let base: any Resource
    public let encryption: LCPResourceEncryption
    private let decryptor: LCPContentDecryptor
    private let lock = NSLock()
    private var cachedLength: UInt64?
    /// The length of the decrypted (still compressed, for a deflated resource) bytes: the padding removed.
    private var cachedDecryptedLength: UInt64?
    private var cachedPlaintext: Data?
    /// The inflation of a resource compressed before encryption, kept between reads (under `lock`).
    private var inflater: LCPStreamingInflater?

    public init(base: any Resource, encryption: LCPResourceEncryption, decryptor: LCPContentDecryptor) {
        self.base = base
        self.encryption = encryption
        self.decryptor = decryptor
    }

    public var href: String { base.href }
    public var isRemote: Bool { base.isRemote }
    public var isRandomAccessCheap: Bool { base.isRandomAccessCheap && !needsWholeDecryption && !encryption.isCompressed }

    private var needsWholeDecryption: Bool { !decryptor.decryptsBlocks }

    /// Bytes of the resource in clear held in memory now (a resource decrypted whole), for tests.
    var heldPlaintextBytes: Int { lock.withLock { cachedPlaintext?.count ?? 0 } }

    public func length() throws(ResourceError) -> UInt64 {
        if let length = lock.withLock({ cachedLength }) { return length }
        let length: UInt64
        if needsWholeDecryption {
            length = try UInt64(plaintext().count)
        } else if let original = encryption.originalLength {
            length = original
        } else if encryption.isCompressed {
            // Inflated once to count it; nothing is kept.
            length = try withInflater { inflater throws(ResourceError) in try inflater.inflatedLength() }
        } else {
            length = try decryptedLength()
        }
        lock.withLock { cachedLength = length }
        return length
    }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        if needsWholeDecryption {
            let whole = try plaintext()
            let count = UInt64(whole.count)
            let wanted = range.map { min($0.lowerBound, count)..<min($0.upperBound, count) } ?? 0..<count
            return whole.subdata(in: Int(wanted.lowerBound)..<Int(wanted.upperBound))
        }
        let length = try length()
        let wanted = range.map { min($0.lowerBound, length)..<min($0.upperBound, length) } ?? 0..<length
        guard !wanted.isEmpty else { return Data() }
        if encryption.isCompressed {
            return try withInflater { inflater throws(ResourceError) in try inflater.read(wanted) }
        }
        return try decrypted(wanted)
    }

    /// The decrypted bytes of `wanted` (within the decrypted length): the IV block and the blocks it covers.
    private func decrypted(_ wanted: Range<UInt64>) throws(ResourceError) -> Data {
        let firstBlock = wanted.lowerBound / 16
        let lastBlock = (wanted.upperBound - 1) / 16
        // Ciphertext block k (plaintext block k) is at 16 + 16k; the block before it (its IV) at 16k.
        let cipherRange = (firstBlock * 16)..<(16 + (lastBlock + 1) * 16)
        let bytes = try base.read(range: cipherRange)
        guard UInt64(bytes.count) == UInt64(cipherRange.count) else {
            throw ResourceError(.badData, href: href, message: "is shorter than its encrypted length says (truncated?)")
        }
        let plain = try decryptBlocks(bytes)
        let offset = Int(wanted.lowerBound - firstBlock * 16)
        return plain.subdata(in: offset..<offset + Int(wanted.count))
    }

    /// A session for one reader (a decoder): the base's session kept open, ciphertext read into a buffer of its own.
    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        if needsWholeDecryption || encryption.isCompressed { return WholeReadSession(resource: self) }
        return BlockReadSession(decryptor: self, base: try base.openReadSession())
    }

    /// Decrypts `bytes`: an IV block then whole blocks.
    private func decryptBlocks(_ bytes: Data) throws(ResourceError) -> Data {
        try decryptBlocks(iv: Data(bytes.prefix(16)), blocks: Data(bytes.dropFirst(16)))
    }

    /// Decrypts whole `blocks` in CBC mode, `iv` being the ciphertext block before them.
    fileprivate func decryptBlocks(iv: Data, blocks: Data) throws(ResourceError) -> Data {
        do {
            guard let plain = try decryptor.decryptBlocks(blocks, iv: iv) else {
                throw ResourceError(.badData, href: href, message: "cannot be decrypted by blocks with this LCP client")
            }
            return plain
        } catch let error as ResourceError {
            throw error
        } catch {
            throw ResourceError(.badData, href: href, message: "does not decrypt with the licence's content key (\(error))")
        }
    }

    /// The resource's inflater, made on first use, called under the lock (one stream, one reader at a time).
    private func withInflater<T>(_ body: (LCPStreamingInflater) throws(ResourceError) -> T) throws(ResourceError) -> T {
        let compressedLength = try decryptedLength()
        lock.lock()
        defer { lock.unlock() }
        if inflater == nil {
            inflater = LCPStreamingInflater(
                href: href, compressedLength: compressedLength, expectedLength: encryption.originalLength,
                limit: encryption.originalLength ?? Self.maximumInflatedLength,
                readCompressed: { [unowned self] range throws(ResourceError) in try self.decrypted(range) })
        }
        return try body(inflater!)
    }

    /// Times the inflation of a compressed resource started from its beginning (for tests).
    var inflationStarts: Int { lock.withLock { inflater?.starts ?? 0 } }

    /// The length of the decrypted bytes (before inflating), cached.
    private func decryptedLength() throws(ResourceError) -> UInt64 {
        if let length = lock.withLock({ cachedDecryptedLength }) { return length }
        let length = try lengthFromLastBlocks()
        lock.withLock { cachedDecryptedLength = length }
        return length
    }

    /// The length in clear from the encrypted length and the padding length in the last block.
    private func lengthFromLastBlocks() throws(ResourceError) -> UInt64 {
        let encryptedLength = try base.length()
        guard encryptedLength >= 32, encryptedLength % 16 == 0 else {
            throw ResourceError(
                .badData, href: href,
                message: "is \(encryptedLength) bytes, not an AES-CBC value (an IV and whole 16-byte blocks)")
        }
        let plain = try decryptBlocks(try base.read(range: (encryptedLength - 32)..<encryptedLength))
        guard let padding = plain.last, (1...16).contains(padding) else {
            throw ResourceError(.badData, href: href, message: "does not decrypt with the licence's content key (bad padding)")
        }
        return encryptedLength - 16 - UInt64(padding)
    }

    /// The whole resource in clear, decrypted (and inflated) once.
    private func plaintext() throws(ResourceError) -> Data {
        if let cached = lock.withLock({ cachedPlaintext }) { return cached }
        let encrypted = try base.read(range: nil)
        guard let decrypted = decryptor.decrypt(encrypted) else {
            throw ResourceError(.badData, href: href, message: "does not decrypt with the licence's content key")
        }
        var plain = decrypted
        if encryption.isCompressed {
            plain = try Self.inflate(decrypted, href: href, expectedLength: encryption.originalLength)
        }
        lock.withLock { cachedPlaintext = plain }
        return plain
    }

    /// The largest resource inflated in memory when no `originalLength` bounds it (a deflate bomb guard).
    static let maximumInflatedLength: UInt64 = 256 * 1024 * 1024

    /// Raw DEFLATE (no zlib header), as ZIP and EPUB use it.
    static func inflate(_ data: Data, href: String, expectedLength: UInt64?) throws(ResourceError) -> Data {
        let limit = expectedLength ?? maximumInflatedLength
        var output = Data()
        do {
            _ = try Data.decompress(
                size: Int64(data.count), bufferSize: 64 * 1024, skipCRC32: true,
                provider: { position, size in data.subdata(in: Int(position)..<min(Int(position) + size, data.count)) },
                consumer: { chunk in
                    output.append(chunk)
                    if UInt64(output.count) > limit { throw ResourceError(.tooLarge, href: href, message: "inflates past \(limit) bytes") }
                })
        } catch let error as ResourceError {
            throw error
        } catch {
            throw ResourceError(.badData, href: href, message: "decrypts to bytes that do not inflate (\(error))")
        }
        if let expectedLength, UInt64(output.count) != expectedLength {
            throw ResourceError(
                .badData, href: href, message: "inflates to \(output.count) bytes, not the \(expectedLength) its encryption says")
        }
        return output
    }
}

extension LCPDecryptor {
    /// The session of a resource decrypted by blocks: each read asks the base session for the ciphertext blocks
    /// it covers and the block before (the IV), into a buffer reused from read to read, and decrypts them in one
    /// call. Not thread-safe (one reader on one thread), as every `ResourceReadSession`.
    final class BlockReadSession: ResourceReadSession {
        let decryptor: LCPDecryptor
        let base: any ResourceReadSession
        private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
        /// Ciphertext bytes fetched from the base, for tests: the IV block and the blocks each read covers.
        private(set) var ciphertextBytesRead: UInt64 = 0

        init(decryptor: LCPDecryptor, base: any ResourceReadSession) {
            self.decryptor = decryptor
            self.base = base
        }

        deinit { scratch.deallocate() }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
            let length = try decryptor.length()
            guard offset < length, buffer.count > 0 else { return 0 }
            let end = min(length, offset + UInt64(buffer.count))
            let firstBlock = offset / 16
            let lastBlock = (end - 1) / 16
            // Ciphertext block k (plaintext block k) is at 16 + 16k; the block before it (its IV) at 16k.
            let cipherStart = firstBlock * 16
            let cipherCount = Int(16 + (lastBlock + 1 - firstBlock) * 16)
            if scratch.count < cipherCount {
                scratch.deallocate()
                scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: cipherCount, alignment: 16)
            }
            var got = 0
            while got < cipherCount {
                let count = try base.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: scratch[got..<cipherCount]), at: cipherStart + UInt64(got))
                if count == 0 { break }
                got += count
            }
            ciphertextBytesRead += UInt64(got)
            guard got == cipherCount else {
                throw ResourceError(.badData, href: decryptor.href, message: "is shorter than its encrypted length says (truncated?)")
            }
            let start = scratch.baseAddress!
            let iv = Data(bytesNoCopy: start, count: 16, deallocator: .none)
            let blocks = Data(bytesNoCopy: start + 16, count: cipherCount - 16, deallocator: .none)
            let plain = try decryptor.decryptBlocks(iv: iv, blocks: blocks)
            let skip = Int(offset - firstBlock * 16)
            let wanted = Int(end - offset)
            plain.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + skip, byteCount: wanted)
            }
            return wanted
        }
    }

    /// The session of a resource decrypted whole (served from the plaintext kept in memory) or inflated as it is
    /// read (served by its inflater): every read goes through the resource.
    final class WholeReadSession: ResourceReadSession {
        let resource: LCPDecryptor

        init(resource: LCPDecryptor) { self.resource = resource }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
            try resource.read(into: buffer, at: offset)
        }
    }
}
