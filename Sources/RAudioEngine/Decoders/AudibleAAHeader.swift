// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The tags of an Audible `.aa` file, read from its header (the format FFmpeg's `aa` demuxer documents: the
/// file's size, the magic `57 90 75 36`, a table of contents, then a dictionary of key/value pairs). Its
/// audio is encrypted and never read; its title, author and narrator are a book someone owns.
enum AudibleAAHeader {
    static let magic: [UInt8] = [0x57, 0x90, 0x75, 0x36]

    /// The dictionary's pairs, nil when `resource` is not an `.aa` file or its header is cut short.
    static func tags(of resource: any Resource) -> [String: String]? {
        guard let head = try? resource.read(range: 0..<65_536), head.count >= 16, Array(head[4..<8]) == magic else { return nil }
        let bytes = [UInt8](head)
        var offset = 8
        func u32() -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let tocCount = u32(), tocCount < 1000, u32() != nil else { return nil }
        offset += tocCount * 12 + 24  // the entries (index, offset, size), then the header's end block
        guard let pairs = u32(), pairs < 1000 else { return nil }
        var tags: [String: String] = [:]
        for _ in 0..<pairs {
            offset += 1
            guard let keyLength = u32(), let valueLength = u32(), keyLength < 4096, valueLength < 65_536,
                  offset + keyLength + valueLength <= bytes.count else { return tags.isEmpty ? nil : tags }
            let key = String(decoding: bytes[offset..<offset + keyLength], as: UTF8.self)
            let value = String(decoding: bytes[offset + keyLength..<offset + keyLength + valueLength], as: UTF8.self)
            offset += keyLength + valueLength
            tags[key.lowercased()] = value
        }
        return tags
    }
}
