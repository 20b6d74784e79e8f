// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension AudioFormatSniffer {
    /// Recognizes the format of `resource` from its first bytes, and the bytes after its ID3v2 tags.
    ///
    /// Blocking I/O: call it from a thread the engine owns, not from Swift's cooperative pool.
    public static func sniff(resource: any Resource) throws(ResourceError) -> SniffedAudioFormat {
        var offset: UInt64 = 0
        var prefix = [UInt8](try resource.read(range: 0..<UInt64(prefixLength)))
        // Skip ID3v2 tags that go past what was read (a large cover image), then look again.
        while prefix.starts(with: Array("ID3".utf8)), let end = id3v2End(prefix, at: 0), end >= prefix.count {
            offset += UInt64(end)
            prefix = [UInt8](try resource.read(range: offset..<(offset + UInt64(prefixLength))))
            if prefix.isEmpty { return .mp3 }
        }
        return sniff(bytes: prefix, at: 0, allowID3: true)
    }
}
