// SPDX-License-Identifier: GPL-3.0-or-later
/// A big-endian reading cursor over a box's bytes, as ISO BMFF stores its integers.
///
/// Reads past the end throw `MP4Unsupported` rather than trap: a damaged box makes the file fall
/// back to FFmpeg's demuxer, which reports the damage.
struct MP4Bytes {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func skip(_ count: Int) throws(MP4Unsupported) {
        guard count >= 0, count <= remaining else { throw MP4Unsupported("a box ends early") }
        offset += count
    }

    mutating func uint8() throws(MP4Unsupported) -> UInt8 {
        guard remaining >= 1 else { throw MP4Unsupported("a box ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(MP4Unsupported) -> UInt16 {
        UInt16(try uint(2))
    }

    mutating func uint32() throws(MP4Unsupported) -> UInt32 {
        UInt32(try uint(4))
    }

    mutating func uint64() throws(MP4Unsupported) -> UInt64 {
        try uint(8)
    }

    /// A 32-bit field, or a 64-bit one in a version-1 box.
    mutating func uint(version: UInt8) throws(MP4Unsupported) -> UInt64 {
        version == 1 ? try uint64() : UInt64(try uint32())
    }

    mutating func take(_ count: Int) throws(MP4Unsupported) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw MP4Unsupported("a box ends early") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// The four-character code at the cursor, byte for character (`©nam` starts with 0xA9).
    mutating func fourCC() throws(MP4Unsupported) -> String {
        String(String.UnicodeScalarView(try take(4).map { Unicode.Scalar($0) }))
    }

    private mutating func uint(_ width: Int) throws(MP4Unsupported) -> UInt64 {
        guard remaining >= width else { throw MP4Unsupported("a box ends early") }
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }
}

/// Why raudio's own MP4 reader leaves a file to FFmpeg's demuxer: a layout it does not read
/// (fragments, several edits, a codec it does not feed) or damage FFmpeg reports better.
struct MP4Unsupported: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
