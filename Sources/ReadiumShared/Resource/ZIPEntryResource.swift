// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ZIPFoundation

/// One file inside a ZIP archive.
///
/// STORED entries: ranges are read with `pread(2)` at the entry's data offset, found from its local
/// file header (30 bytes + name length + extra length); cheap. DEFLATED entries: a range is inflated
/// from the start of the entry up to the end of the range (deflate has no random access), or, in an
/// entry over 8 MiB, from the last checkpoint before it (`DeflateIndex`: at most 256 checkpoints of
/// 32 KiB, at least 1 MiB apart, found as reads pass them), so `isRandomAccessCheap` is false; to make
/// sequential reading linear rather than quadratic, the last inflated window (the whole entry when it
/// is at most 8 MiB, else 4 MiB from the range's start) is kept and served again. Safety: entries declaring more than `maximumEntrySize` are refused with
/// `.tooLarge` for whole reads and for any DEFLATED read; inflating past the declared size (a ZIP
/// bomb) stops at once with `.tooLarge`; a CRC-32 mismatch on a whole read is `.badData`.
/// Thread-safe: the archive is opened per call, the cache is behind a `Locked`. In a remote archive
/// (`ZIPContainer(remote:access:)`) each read is a range request.
public final class ZIPEntryResource: Resource {
    /// Entries whose declared uncompressed size is above this are refused (2 GiB).
    public static let maximumEntrySize: UInt64 = 2 << 30
    /// Deflate cannot compress better than about 1032:1; a larger declared ratio is a lie.
    static let maximumDeflateRatio: UInt64 = 1100
    static let wholeEntryCacheLimit: UInt64 = 8 << 20
    static let windowSize: UInt64 = 4 << 20
    static let inflateChunkSize = 64 << 10

    let info: ZIPEntryInfo
    let source: any ZIPArchiveSource
    let archiveSize: UInt64
    private let dataOffset = Locked<UInt64?>(nil)
    private let window = Locked<(start: UInt64, bytes: Data)?>(nil)
    /// Checkpoints of a large DEFLATED entry's stream, added as reads pass them (`DeflateIndex`).
    let inflateIndex = Locked<DeflateIndex?>(nil)

    init(info: ZIPEntryInfo, source: any ZIPArchiveSource, archiveSize: UInt64) {
        self.info = info
        self.source = source
        self.archiveSize = archiveSize
    }

    public var href: String { info.href }
    public var isRemote: Bool { source.isRemote }
    public var isRandomAccessCheap: Bool { info.compressionMethod == ZIPEntryInfo.stored }

    /// Whether the entry is DEFLATED (rather than STORED) in the archive.
    public var isCompressed: Bool { info.compressionMethod == ZIPEntryInfo.deflated }

    /// The declared uncompressed size from the central directory.
    public func length() throws(ResourceError) -> UInt64 { info.uncompressedSize }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let size = info.uncompressedSize
        let wanted = (range ?? 0..<size).clamped(to: 0..<size)
        let isWhole = wanted.lowerBound == 0 && wanted.upperBound == size
        if isWhole || isCompressed {
            guard size <= Self.maximumEntrySize else {
                throw ResourceError(.tooLarge, href: href, message: "declares \(size) bytes, over the limit of \(Self.maximumEntrySize)")
            }
        }
        return try source.withBytes { fd throws(ResourceError) in
            let offset = try dataOffset(fd)
            if isCompressed {
                return try readDeflated(fd: fd, offset: offset, wanted: wanted, isWhole: isWhole)
            }
            guard info.compressedSize == size else {
                throw ResourceError(.badData, href: href, message: "is STORED but its sizes disagree (\(info.compressedSize) vs \(size) bytes)")
            }
            guard !wanted.isEmpty else { return Data() }
            let data = try fd.read(at: offset + wanted.lowerBound, count: Int(wanted.count))
            guard data.count == wanted.count else {
                throw ResourceError(.badData, href: href, message: "is truncated in the archive")
            }
            if isWhole && data.crc32(checksum: 0) != info.crc32 {
                throw ResourceError(.badData, href: href, message: "fails its CRC-32 check: the archive is corrupt")
            }
            return data
        }
    }

    /// A STORED entry is read with `pread(2)` straight into `buffer`; a DEFLATED one goes through
    /// `read(range:)` (and its inflate window).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        let size = info.uncompressedSize
        guard !isCompressed, info.compressedSize == size else {
            guard buffer.count > 0, offset < size else { return 0 }
            let data = try read(range: offset..<min(size, offset + UInt64(buffer.count)))
            return data.withUnsafeBytes { bytes in
                guard let source = bytes.baseAddress, let destination = buffer.baseAddress else { return 0 }
                destination.copyMemory(from: source, byteCount: min(bytes.count, buffer.count))
                return min(bytes.count, buffer.count)
            }
        }
        guard offset < size, buffer.count > 0 else { return 0 }
        let wanted = Int(min(UInt64(buffer.count), size - offset))
        return try source.withBytes { fd throws(ResourceError) in
            let start = try dataOffset(fd)
            let got = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: start + offset)
            guard got == wanted else {
                throw ResourceError(.badData, href: href, message: "is truncated in the archive")
            }
            return got
        }
    }

    /// A STORED entry keeps the archive open for the session's reads; a DEFLATED one reads through
    /// `read(into:at:)` (and its inflate window).
    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        let size = info.uncompressedSize
        guard !isCompressed, info.compressedSize == size else { return PassThroughReadSession(resource: self) }
        return try source.openSession(limit: size, truncationHref: href) { fd throws(ResourceError) in try dataOffset(fd) }
    }

    /// The offset of the entry's data: its local header offset + 30 + name length + extra length.
    private func dataOffset(_ fd: any ZIPArchiveBytes) throws(ResourceError) -> UInt64 {
        if let known = dataOffset.withLock({ $0 }) { return known }
        let header = try fd.read(at: info.localHeaderOffset, count: 30)
        guard header.count == 30, header.le32(0) == ZIPCentralDirectory.localSignature else {
            throw ResourceError(.badData, href: href, message: "has no valid local file header in the archive")
        }
        let offset = info.localHeaderOffset + 30 + UInt64(header.le16(26)) + UInt64(header.le16(28))
        guard offset <= archiveSize, info.compressedSize <= archiveSize - offset else {
            throw ResourceError(.badData, href: href, message: "is truncated: its data runs past the end of the archive")
        }
        dataOffset.withLock { $0 = offset }
        return offset
    }

    /// `wanted` from the last inflated window, if it holds all of it.
    func cachedSlice(_ wanted: Range<UInt64>) -> Data? {
        window.withLock { window in
            guard let window else { return nil }
            let end = window.start + UInt64(window.bytes.count)
            guard wanted.lowerBound >= window.start, wanted.upperBound <= end else { return nil }
            let base = window.bytes.startIndex
            return window.bytes.subdata(in: (base + Int(wanted.lowerBound - window.start))..<(base + Int(wanted.upperBound - window.start)))
        }
    }

    /// Keeps `bytes` (inflated from offset `start`) for the next reads.
    func storeWindow(start: UInt64, bytes: Data) {
        window.withLock { $0 = (start, bytes) }
    }
}
