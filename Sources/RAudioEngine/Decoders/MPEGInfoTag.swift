// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The Xing/Info (LAME) or VBRI header in the first frame of an MP3, when there is one.
///
/// It tells whether `mpg123_length` can be trusted before a scan: with a frame count in the header,
/// libmpg123 knows the exact length (and, with a LAME tag, the gapless delay and padding).
struct MPEGInfoTag: Equatable {
    enum Kind: String { case xing = "Xing", info = "Info", vbri = "VBRI" }

    var kind: Kind
    /// Frames of audio announced by the tag, when it gives them.
    var frameCount: Int?
    /// Bytes of audio announced by the tag, when it gives them.
    var byteCount: Int?

    /// Finds the tag in the first MPEG frame of `bytes` (the first bytes of the file; ID3v2 is skipped).
    init?(firstBytes bytes: [UInt8]) {
        var offset = 0
        while bytes.count - offset >= 10, bytes[offset..<(offset + 3)].elementsEqual(Array("ID3".utf8)),
              let end = AudioFormatSniffer.id3v2End(bytes, at: offset) {
            offset = end
        }
        // Allow a little junk between the tag and the first frame.
        let searchEnd = min(bytes.count, offset + 4096)
        while offset < searchEnd, MPEGFrameHeader(bytes, at: offset) == nil { offset += 1 }
        guard let header = MPEGFrameHeader(bytes, at: offset), header.layer == 3 else { return nil }
        let hasCRC = bytes[offset + 1] & 0x01 == 0
        let xingOffset = offset + 4 + (hasCRC ? 2 : 0) + header.sideInfoLength
        func uint32(_ at: Int) -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            return bytes[at..<(at + 4)].reduce(0) { ($0 << 8) | Int($1) }
        }
        func magic(_ at: Int) -> String? {
            guard at + 4 <= bytes.count else { return nil }
            return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        }
        if let name = magic(xingOffset), let kind = Kind(rawValue: name), kind != .vbri,
           let flags = uint32(xingOffset + 4) {
            self.kind = kind
            var field = xingOffset + 8
            frameCount = nil
            byteCount = nil
            if flags & 0x1 != 0 { frameCount = uint32(field); field += 4 }
            if flags & 0x2 != 0 { byteCount = uint32(field) }
            return
        }
        let vbriOffset = offset + 4 + 32
        if magic(vbriOffset) == "VBRI" {
            kind = .vbri
            byteCount = uint32(vbriOffset + 10)
            frameCount = uint32(vbriOffset + 14)
            return
        }
        return nil
    }

    /// Whether the tag's frame count can be trusted for a file of `fileLength` bytes: it must give a
    /// frame count, and the audio it announces must fit in the file (a truncated file's tag lies).
    func isTrustworthy(fileLength: UInt64) -> Bool {
        guard let frameCount, frameCount > 0 else { return false }
        if let byteCount, byteCount > 0 {
            return UInt64(byteCount) <= fileLength + 1024
        }
        return true
    }
}

extension MPEGInfoTag {
    /// Reads the first frame of `resource` (after any ID3v2 tags, however large) and parses its tag.
    static func read(from resource: any Resource) throws(ResourceError) -> MPEGInfoTag? {
        var offset: UInt64 = 0
        var bytes = [UInt8](try resource.read(range: 0..<8192))
        while bytes.starts(with: Array("ID3".utf8)), let end = AudioFormatSniffer.id3v2End(bytes, at: 0) {
            offset += UInt64(end)
            bytes = [UInt8](try resource.read(range: offset..<(offset + 8192)))
        }
        return MPEGInfoTag(firstBytes: bytes)
    }
}
