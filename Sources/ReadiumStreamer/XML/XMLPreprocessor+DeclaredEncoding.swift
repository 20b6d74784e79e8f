// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension XMLPreprocessor {
    /// Declared encodings other than UTF-8 that are transcoded here; libxml2 never sees them.
    static let transcodedEncodings: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1, "latin-1": .isoLatin1,
        "us-ascii": .ascii, "ascii": .ascii,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
    ]

    /// `bytes` (no byte order mark, ASCII-compatible) as UTF-8 whose XML declaration, if any, says UTF-8.
    ///
    /// libxml2 must only ever be handed UTF-8: with an encoding it switches to through iconv (UTF-7,
    /// or a name it does not know such as `UTF.8`), invalid bytes after the declaration made
    /// `xmlParseChunk` read through a null pointer (found by `make fuzz`, inputs kept in
    /// `Tests/ReadiumStreamerTests/Fuzz`). So: UTF-8 or no declared encoding passes unchanged; Latin-1,
    /// ASCII and Windows-1252 are transcoded; any other declared encoding is read as UTF-8 when the
    /// bytes are valid UTF-8 (a mislabelled file), else refused with `.xmlEncoding`.
    static func normalizingDeclaredEncoding(_ bytes: [UInt8], href: String) throws(XMLError) -> [UInt8] {
        guard let range = declaredEncodingRange(bytes) else { return bytes }
        let name = String(decoding: bytes[range], as: UTF8.self)
        let key = name.lowercased()
        if key == "utf-8" || key == "utf8" { return bytes }
        var converted: [UInt8]
        if let encoding = transcodedEncodings[key] {
            guard let text = String(data: Data(bytes), encoding: encoding) else {
                throw XMLError(.xmlEncoding, href: href, message: "declares the encoding \(name) but is not valid \(name) text")
            }
            converted = Array(text.utf8)
        } else if String(validating: bytes, as: UTF8.self) != nil {
            converted = bytes
        } else {
            throw XMLError(.xmlEncoding, href: href, message: "declares the encoding \(name), which cannot be read (use UTF-8), and is not valid UTF-8")
        }
        guard let convertedRange = declaredEncodingRange(converted) else { return converted }
        converted.replaceSubrange(convertedRange, with: Array("UTF-8".utf8))
        return converted
    }

    /// The byte range of the value of `encoding="..."` in the XML declaration at the start of `bytes`.
    ///
    /// Found even in a declaration that is never closed (libxml2 still switches encoding on it).
    static func declaredEncodingRange(_ bytes: [UInt8]) -> Range<Int>? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let limit = min(bytes.count, 512)
        let end = find(Array("?>".utf8), in: Array(bytes[..<limit]), from: 5) ?? limit
        guard let key = find(Array("encoding".utf8), in: Array(bytes[..<end]), from: 5) else { return nil }
        var index = key + 8
        func skipSpace() {
            while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        let start = index + 1
        guard let close = bytes[start..<end].firstIndex(of: quote) else { return nil }
        return start..<close
    }
}
