// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ZIPFoundation

/// A protected resource read in clear: only the 16-byte blocks a read covers are decrypted (AES-256-CBC, the
/// block before as IV), so that play, seek and range requests never decrypt a whole track.
///
/// The length in clear comes from the last two blocks alone (the last byte of the last block is the W3C padding
/// length), or from `originalLength`. A resource DEFLATE-compressed before encryption is decrypted and inflated
/// whole (such resources are documents, never tracks). Nothing is written to disk; the whole plaintext of a
/// compressed resource is kept in memory while the resource lives. Safe to call from any thread.
public final class LCPDecryptor: Resource, @unchecked Sendable {
    public let base: any Resource
    public let encryption: LCPResourceEncryption
    private let decryptor: LCPContentDecryptor
    private let lock = NSLock()
    private var cachedLength: UInt64?
    private var cachedPlaintext: Data?

    public init(base: any Resource, encryption: LCPResourceEncryption, decryptor: LCPContentDecryptor) {
        self.base = base
        self.encryption = encryption
        self.decryptor = decryptor
    }

    public var href: String { base.href }
    public var isRemote: Bool { base.isRemote }
    public var isRandomAccessCheap: Bool { base.isRandomAccessCheap && !needsWholeDecryption }

    private var needsWholeDecryption: Bool { encryption.isCompressed || !decryptor.decryptsBlocks }

    public func length() throws(ResourceError) -> UInt64 {
        if let length = lock.withLock({ cachedLength }) { return length }
        let length: UInt64
        if needsWholeDecryption {
            length = try UInt64(plaintext().count)
        } else if let original = encryption.originalLength {
            length = original
        } else {
            length = try lengthFromLastBlocks()
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

    /// Decrypts `bytes`: an IV block then whole blocks.
    private func decryptBlocks(_ bytes: Data) throws(ResourceError) -> Data {
        let iv = bytes.prefix(16)
        let blocks = bytes.dropFirst(16)
        do {
            guard let plain = try decryptor.decryptBlocks(Data(blocks), iv: Data(iv)) else {
                throw ResourceError(.badData, href: href, message: "cannot be decrypted by blocks with this LCP client")
            }
            return plain
        } catch let error as ResourceError {
            throw error
        } catch {
            throw ResourceError(.badData, href: href, message: "does not decrypt with the licence's content key (\(error))")
        }
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
