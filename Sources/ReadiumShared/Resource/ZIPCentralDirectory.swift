// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One file of a ZIP archive as its central directory describes it.
struct ZIPEntryInfo: Sendable {
    /// The normalized href (decoded name, `.` and empty segments dropped).
    let href: String
    /// The name as stored, decoded, for messages.
    let storedName: String
    let compressionMethod: UInt16
    let flags: UInt16
    let crc32: UInt32
    let compressedSize: UInt64
    let uncompressedSize: UInt64
    let localHeaderOffset: UInt64

    var isEncrypted: Bool { flags & 0x0001 != 0 }
    static let stored: UInt16 = 0
    static let deflated: UInt16 = 8
}

/// Reads a ZIP archive's end-of-central-directory record (ZIP64 included) and central directory.
///
/// Written here rather than taken from ZIPFoundation's `Archive` because the container needs what
/// `Entry` keeps internal (the local header offset, for pread-based random access) and must report
/// (not silently stop at) encrypted, duplicate, escaping and non-UTF-8 entries.
struct ZIPCentralDirectory {
    /// Addressable file entries, first occurrence of each href, in central-directory order.
    var entries: [ZIPEntryInfo] = []
    /// What was skipped or decoded leniently, one sentence each.
    var warnings: [String] = []
    /// The size of the archive file when it was read.
    var archiveSize: UInt64 = 0

    static let endSignature: UInt32 = 0x0605_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    static let zip64EndSignature: UInt32 = 0x0606_4b50
    static let centralSignature: UInt32 = 0x0201_4b50
    static let localSignature: UInt32 = 0x0403_4b50
    /// A central directory larger than this is refused (a hostile archive could claim gigabytes).
    static let maximumDirectorySize: UInt64 = 256 << 20

    /// Parses the archive open as `fd`; `archiveHref` names it in errors.
    init(fd: any ZIPArchiveBytes, archiveHref: String) throws(ResourceError) {
        func notZIP(_ reason: String) -> ResourceError {
            ResourceError(.badData, href: archiveHref, message: "is not a ZIP archive (\(reason))")
        }
        let size = try fd.size()
        archiveSize = size
        guard size > 0 else { throw notZIP("the file is empty") }
        guard size >= 22 else { throw notZIP("only \(size) bytes long") }

        // The end record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
        let tailLength = min(size, 22 + 65535)
        let tailStart = size - tailLength
        let tail = try fd.read(at: tailStart, count: Int(tailLength))
        var endOffsetInTail: Int?
        var index = tail.count - 22
        while index >= 0 {
            if tail.le32(index) == Self.endSignature, index + 22 + Int(tail.le16(index + 20)) <= tail.count {
                endOffsetInTail = index
                break
            }
            index -= 1
        }
        guard let endIndex = endOffsetInTail else {
            let head = try fd.read(at: 0, count: 4)
            if head.count == 4 && head.le32(0) == Self.localSignature {
                throw notZIP("truncated: no end of central directory record")
            }
            throw notZIP("no ZIP signature")
        }
        var entryCount = UInt64(tail.le16(endIndex + 10))
        var directorySize = UInt64(tail.le32(endIndex + 12))
        var directoryOffset = UInt64(tail.le32(endIndex + 16))
        let endOffset = tailStart + UInt64(endIndex)

        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF, endOffset >= 20 {
            let locator = try fd.read(at: endOffset - 20, count: 20)
            if locator.count == 20, locator.le32(0) == Self.zip64LocatorSignature {
                let zip64Offset = locator.le64(8)
                let record = try fd.read(at: zip64Offset, count: 56)
                guard record.count == 56, record.le32(0) == Self.zip64EndSignature else {
                    throw notZIP("the ZIP64 end of central directory record is missing")
                }
                entryCount = record.le64(32)
                directorySize = record.le64(40)
                directoryOffset = record.le64(48)
            }
        }
        guard directorySize <= Self.maximumDirectorySize else {
            throw ResourceError(.tooLarge, href: archiveHref, message: "has a central directory of \(directorySize) bytes, over the limit")
        }
        guard directoryOffset <= size, directorySize <= size - directoryOffset else {
            throw notZIP("truncated: the central directory lies beyond the end of the file")
        }
        let directory = try fd.read(at: directoryOffset, count: Int(directorySize))
        try parse(directory: directory, expectedCount: entryCount, archiveHref: archiveHref)
    }

    private mutating func parse(directory: Data, expectedCount: UInt64, archiveHref: String) throws(ResourceError) {
        var seen = Set<String>()
        var position = 0
        var parsed: UInt64 = 0
        while parsed < expectedCount {
            guard position + 46 <= directory.count, directory.le32(position) == Self.centralSignature else {
                throw ResourceError(.badData, href: archiveHref,
                                    message: "has a damaged central directory (entry \(parsed + 1) of \(expectedCount) is unreadable)")
            }
            let flags = directory.le16(position + 8)
            let method = directory.le16(position + 10)
            let crc = directory.le32(position + 16)
            var compressed = UInt64(directory.le32(position + 20))
            var uncompressed = UInt64(directory.le32(position + 24))
            let nameLength = Int(directory.le16(position + 28))
            let extraLength = Int(directory.le16(position + 30))
            let commentLength = Int(directory.le16(position + 32))
            var localOffset = UInt64(directory.le32(position + 42))
            let nameStart = position + 46
            let next = nameStart + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw ResourceError(.badData, href: archiveHref, message: "has a damaged central directory (entry \(parsed + 1) is cut off)")
            }
            let nameBytes = directory.subdata(in: nameStart..<nameStart + nameLength)
            let extra = directory.subdata(in: nameStart + nameLength..<nameStart + nameLength + extraLength)
            readZIP64Extra(extra, uncompressed: &uncompressed, compressed: &compressed, localOffset: &localOffset)
            position = next
            parsed += 1

            let (name, wasUTF8) = Self.decodeName(nameBytes, flaggedUTF8: flags & 0x0800 != 0)
            if !wasUTF8 {
                warnings.append("entry '\(name)' has a name that is not UTF-8; decoded as code page 437")
            }
            if name.hasSuffix("/") { continue }  // a folder
            guard let href = Self.addressableHref(name) else {
                warnings.append("entry '\(name)' is not addressable: its name is absolute or leaves the archive's root")
                continue
            }
            guard seen.insert(href).inserted else {
                warnings.append("entry '\(href)' appears more than once; the first one is used")
                continue
            }
            entries.append(ZIPEntryInfo(href: href, storedName: name, compressionMethod: method, flags: flags, crc32: crc,
                                        compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: localOffset))
        }
    }

    /// Replaces 32-bit fields saturated at 0xFFFFFFFF with their values from a ZIP64 extra field (id 1).
    private func readZIP64Extra(_ extra: Data, uncompressed: inout UInt64, compressed: inout UInt64, localOffset: inout UInt64) {
        var position = 0
        while position + 4 <= extra.count {
            let id = extra.le16(position)
            let length = Int(extra.le16(position + 2))
            let start = position + 4
            guard start + length <= extra.count else { return }
            if id == 0x0001 {
                var cursor = start
                for field in [0, 1, 2] {
                    let saturated = field == 0 ? uncompressed == 0xFFFF_FFFF : field == 1 ? compressed == 0xFFFF_FFFF : localOffset == 0xFFFF_FFFF
                    guard saturated else { continue }
                    guard cursor + 8 <= start + length else { return }
                    let value = extra.le64(cursor)
                    switch field {
                    case 0: uncompressed = value
                    case 1: compressed = value
                    default: localOffset = value
                    }
                    cursor += 8
                }
                return
            }
            position = start + length
        }
    }

    /// Decodes an entry name: UTF-8 when flagged or valid, else code page 437 (never fails).
    static func decodeName(_ bytes: Data, flaggedUTF8: Bool) -> (name: String, wasUTF8: Bool) {
        if let utf8 = String(data: bytes, encoding: .utf8) { return (utf8, true) }
        var name = ""
        name.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte < 0x80 {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name.unicodeScalars.append(codePage437High[Int(byte - 0x80)])
            }
        }
        return (name, false)
    }

    /// The upper half (0x80...0xFF) of IBM code page 437, the ZIP default for names without the UTF-8 flag.
    private static let codePage437High: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}".unicodeScalars
    )

    /// The href an entry is looked up by, or nil when its name is absolute, has a `..` segment,
    /// a NUL, a backslash-rooted or drive-letter path.
    static func addressableHref(_ name: String) -> String? {
        if name.isEmpty || name.hasPrefix("/") || name.hasPrefix("\\") || name.contains("\0") { return nil }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return nil }
        let segments = name.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0.split(separator: "\\").contains("..") }) { return nil }
        let kept = segments.filter { $0 != "." }
        return kept.isEmpty ? nil : kept.joined(separator: "/")
    }
}

extension Data {
    /// A little-endian UInt16 at `offset` from the start of the data.
    func le16(_ offset: Int) -> UInt16 {
        let base = startIndex + offset
        return UInt16(self[base]) | UInt16(self[base + 1]) << 8
    }

    /// A little-endian UInt32 at `offset` from the start of the data.
    func le32(_ offset: Int) -> UInt32 {
        UInt32(le16(offset)) | UInt32(le16(offset + 2)) << 16
    }

    /// A little-endian UInt64 at `offset` from the start of the data.
    func le64(_ offset: Int) -> UInt64 {
        UInt64(le32(offset)) | UInt64(le32(offset + 4)) << 32
    }
}
