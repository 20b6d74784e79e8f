// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Byte-level preparation of an XML document before libxml2 parses it.
///
/// Works on UTF-8 (other encodings are transcoded first): only ASCII bytes are inspected.
enum XMLPreprocessor {
    /// The document as UTF-8 without a byte order mark, its XML declaration saying so.
    ///
    /// UTF-16 (with a BOM, or detected from `<?` encoded as 16-bit units) is transcoded to UTF-8 and the
    /// XML declaration's `encoding` rewritten, so libxml2 reads what it is told; other declared
    /// encodings go through `normalizingDeclaredEncoding`.
    static func decodedUTF8(_ data: Data, href: String) throws(XMLError) -> [UInt8] {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try normalizingDeclaredEncoding(Array(bytes.dropFirst(3)), href: href) }
        let encoding: String.Encoding?
        var body = bytes[...]
        if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
            body = body.dropFirst(2)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
            body = body.dropFirst(2)
        } else if bytes.starts(with: [0x00, 0x3C, 0x00]) {
            encoding = .utf16BigEndian
        } else if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) || bytes.starts(with: [0x3C, 0x00, 0x21, 0x00]) {
            encoding = .utf16LittleEndian
        } else {
            encoding = nil
        }
        guard let encoding else { return try normalizingDeclaredEncoding(bytes, href: href) }
        guard let text = String(data: Data(body), encoding: encoding) else {
            throw XMLError(.xmlEncoding, href: href, message: "is not valid UTF-16 text")
        }
        return Array(rewritingDeclaredEncoding(text).utf8)
    }

    /// `text` with the `encoding="..."` of its XML declaration replaced by UTF-8.
    static func rewritingDeclaredEncoding(_ text: String) -> String {
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return text }
        var declaration = String(text[..<end.lowerBound])
        guard let key = declaration.range(of: "encoding") else { return text }
        let afterKey = declaration[key.upperBound...]
        guard let quote = afterKey.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return text }
        let quoteCharacter = declaration[quote]
        let valueStart = declaration.index(after: quote)
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quoteCharacter) else { return text }
        declaration.replaceSubrange(valueStart..<valueEnd, with: "UTF-8")
        return declaration + text[end.lowerBound...]
    }

    /// Throws when the DOCTYPE's internal subset declares an entity (`<!ENTITY`), whatever it is.
    ///
    /// Such declarations are what entity-expansion ("billion laughs") and external-entity (XXE) attacks
    /// need; publications have no use for them.
    static func refuseEntityDeclarations(_ bytes: [UInt8], href: String) throws(XMLError) {
        guard let start = find(Array("<!DOCTYPE".utf8), in: bytes, from: 0) else { return }
        // Only a DOCTYPE in the prolog counts: before it, nothing but declarations, comments, space.
        if let firstElement = firstElementStart(bytes), firstElement < start { return }
        var index = start
        var depth = 0
        var quote: UInt8? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">") && depth <= 0 {
                break
            } else if depth > 0 && matches(Array("<!ENTITY".utf8), in: bytes, at: index) {
                let line = bytes[..<index].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw XMLError(
                    .entityDeclaration, href: href, line: line, column: 0,
                    message: "declares entities in its DOCTYPE (<!ENTITY); refused to prevent entity expansion and external entity attacks")
            }
            index += 1
        }
    }

    /// Replaces every HTML named entity except XML's five with numeric character references.
    ///
    /// Comments, CDATA sections, processing instructions and the DOCTYPE are left untouched. When
    /// `escapeUnknown` is set, an unknown `&name;` and an `&` that starts no reference are escaped as
    /// `&amp;` (text kept as written) with a warning; otherwise they are left for the parser to reject.
    static func replacingNamedEntities(
        _ bytes: [UInt8], href: String, escapeUnknown: Bool, warnings: inout [ParsingWarning]
    ) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "&")) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var index = 0
        var line = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: "<"), let end = endOfSkippedSection(bytes, at: index) {
                for skipped in bytes[index..<end] where skipped == 0x0A { line += 1 }
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var nameEnd = index + 1
            while nameEnd < bytes.count, nameEnd - index <= 40, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let hasName = nameEnd > index + 1 && nameEnd < bytes.count && bytes[nameEnd] == UInt8(ascii: ";")
            let isNumeric = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "#")
            if hasName {
                let name = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self)
                if HTMLEntities.xmlPredefined.contains(name) {
                    output.append(contentsOf: bytes[index...nameEnd])
                } else if let references = HTMLEntities.numericReferences(for: name) {
                    output.append(contentsOf: references.utf8)
                } else if escapeUnknown {
                    warnings.append(ParsingWarning(source: href, path: "line \(line)", message: "unknown entity &\(name); kept as text"))
                    output.append(contentsOf: "&amp;".utf8)
                    output.append(contentsOf: bytes[(index + 1)...nameEnd])
                } else {
                    output.append(contentsOf: bytes[index...nameEnd])
                }
                index = nameEnd + 1
            } else if escapeUnknown && !isNumeric {
                warnings.append(ParsingWarning(source: href, path: "line \(line)", message: "a bare '&' was escaped as text"))
                output.append(contentsOf: "&amp;".utf8)
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The end (exclusive) of a comment, CDATA section, processing instruction or DOCTYPE starting at
    /// `index`, or nil when none starts there.
    static func endOfSkippedSection(_ bytes: [UInt8], at index: Int) -> Int? {
        let sections: [(open: String, close: String)] = [
            ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"),
        ]
        for section in sections where matches(Array(section.open.utf8), in: bytes, at: index) {
            let close = Array(section.close.utf8)
            guard let end = find(close, in: bytes, from: index + section.open.utf8.count) else { return bytes.count }
            return end + close.count
        }
        if matches(Array("<!DOCTYPE".utf8), in: bytes, at: index) {
            var depth = 0
            var cursor = index
            while cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ">") where depth <= 0: return cursor + 1
                default: break
                }
                cursor += 1
            }
            return bytes.count
        }
        return nil
    }

    /// The offset of the first `<` that starts an element (not `<?`, `<!`), if any.
    static func firstElementStart(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                if let end = endOfSkippedSection(bytes, at: index) {
                    index = end
                    continue
                }
                return index
            }
            index += 1
        }
        return nil
    }

    static func matches(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0] && matches(pattern, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }
}
