// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Recognizes file contents from their first bytes ("magic numbers"), without trusting extensions.
public enum ContentSniffer {
    /// What the first bytes of a file look like.
    public enum Kind: Sendable, Equatable {
        case zip
        case json
        case audio(MediaType)
        /// An HTML or XHTML document (`<!DOCTYPE html>` or `<html` first, after an XML declaration and comments).
        case html
        /// Text: UTF-8, UTF-16 with a byte order mark, or an 8-bit encoding, without control characters but
        /// tabs, line breaks and form feeds.
        case text
        case empty
        case other
    }

    /// The number of bytes `kind(of:)` wants to see.
    public static let headerLength = 4096

    public static func kind(of header: Data) -> Kind {
        let bytes = [UInt8](header.prefix(headerLength))
        guard !bytes.isEmpty else { return .empty }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        // UTF-16 little-endian text's byte order mark (FF FE) is also an MPEG audio frame sync.
        if isUTF16LittleEndianText(bytes) { return .text }
        if let audio = audioType(of: bytes) { return .audio(audio) }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "{") { return .json }
        if isHTML(bytes[start...]) { return .html }
        if isText(bytes) { return .text }
        return .other
    }

    /// Whether `bytes` (white space and a UTF-8 byte order mark already skipped) open an HTML document: an
    /// XML declaration, comments and white space, then `<!DOCTYPE html` or `<html`, in any case.
    static func isHTML(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = Substring(String(decoding: bytes.prefix(2048), as: UTF8.self))
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") {
                let end = rest.hasPrefix("<?") ? "?>" : "-->"
                guard let close = rest.range(of: end) else { return false }
                rest = rest[close.upperBound...]
                continue
            }
            let lowered = rest.prefix(14).lowercased()
            return lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") && (lowered.count == 5 || !lowered.dropFirst(5).first!.isLetter)
        }
    }

    /// Whether `bytes` are UTF-16 little-endian text: its byte order mark, then characters of the first 256
    /// of Unicode (a zero high byte), white space or printable, nearly all of the first ten.
    static func isUTF16LittleEndianText(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: [0xFF, 0xFE]), bytes.count >= 6 else { return false }
        let units = stride(from: 2, to: min(bytes.count - 1, 22), by: 2).map { (bytes[$0], bytes[$0 + 1]) }
        let textual = units.filter { low, high in high == 0 && (low >= 0x20 || [0x09, 0x0A, 0x0D].contains(low)) }
        return textual.count * 10 >= units.count * 8
    }

    /// Whether `bytes` look like text: a UTF-16 byte order mark, or no NUL nor control character but tab,
    /// line feed, form feed and carriage return (escape sequences and binary formats have them early).
    static func isText(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        return !bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0C && $0 != 0x0D || $0 == 0x7F }
    }

    /// The audio media type the bytes start with, if any.
    public static func audioType(of bytes: [UInt8]) -> MediaType? {
        if bytes.starts(with: Array("ID3".utf8)) { return .mp3 }
        if bytes.starts(with: Array("OggS".utf8)) {
            let header = String(decoding: bytes.prefix(64).map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
            if header.contains("OpusHead") { return .opus }
            return .ogg
        }
        if bytes.starts(with: Array("fLaC".utf8)) { return .flac }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WAVE".utf8) { return .wav }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return .mp4Audio }
        // Audible's .aa: the file's size, then this magic (its audio is encrypted: see Publication.Protection).
        if bytes.count >= 8, Array(bytes[4..<8]) == [0x57, 0x90, 0x75, 0x36] { return .audibleAA }
        if bytes.count >= 4, Array(bytes[0..<4]) == [0x1A, 0x45, 0xDF, 0xA3] { return .webmAudio }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 { return .aac }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0, bytes[2] & 0xF0 != 0xF0 {
            return .mp3
        }
        return nil
    }

    /// Audio file extensions accepted in an informal audiobook (playlists and unknown ones are not tracks).
    public static let audioExtensions: Set<String> = [
        "mp3", "ogg", "oga", "opus", "m4a", "m4b", "aac", "flac", "wav", "webm", "aiff", "aif", "alac", "mogg", "aa",
    ]
}
