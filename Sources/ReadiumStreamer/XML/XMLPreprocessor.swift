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

    /// Throws when the document's DOCTYPE has an internal subset (`<!DOCTYPE x [ ... ]>`), whatever it holds.
    ///
    /// An internal subset is where entities are declared (`<!ENTITY`, `<!ENTITY %`), which is what entity-expansion
    /// ("billion laughs") and external-entity (XXE) attacks need; publications have no use for one. The prolog
    /// is read as libxml2 reads it (the XML declaration, comments, processing instructions and white space, then
    /// the DOCTYPE's name and quoted identifiers): libxml2 only ever sees UTF-8 here, and stops at its first
    /// error, so a DOCTYPE that this does not find is one libxml2 does not read either. Looking for the text
    /// `<!ENTITY` instead was bypassed: by a `<!DOCTYPE` quoted in an earlier comment, by a quote or a `]` in a
    /// comment of the subset.
    static func refuseEntityDeclarations(_ bytes: [UInt8], href: String) throws(XMLError) {
        guard let doctype = prologDOCTYPE(bytes) else { return }
        var index = doctype + 9
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A public or system identifier: a `[` inside it opens nothing.
                let quote = bytes[index]
                index = (bytes[(index + 1)...].firstIndex(of: quote) ?? bytes.count) + 1
            case UInt8(ascii: "["):
                let line = bytes[..<index].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw XMLError(
                    .entityDeclaration, href: href, line: line, column: 0,
                    message: "has an internal subset in its DOCTYPE (<!DOCTYPE ... [), where entities are declared (<!ENTITY); refused to prevent entity expansion and external entity attacks")
            case UInt8(ascii: ">"), UInt8(ascii: "<"):
                return
            default:
                index += 1
            }
        }
    }

    /// The offset of the `<!DOCTYPE` that ends the prolog's comments, processing instructions and white
    /// space, nil when the prolog has none (the root element, or anything else, comes first).
    static func prologDOCTYPE(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "<") where matches(Array("<?".utf8), in: bytes, at: index):
                guard let end = find(Array("?>".utf8), in: bytes, from: index + 2) else { return nil }
                index = end + 2
            case UInt8(ascii: "<") where matches(Array("<!--".utf8), in: bytes, at: index):
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4) else { return nil }
                index = end + 3
            case UInt8(ascii: "<") where index + 9 <= bytes.count
                && bytes[index..<(index + 9)].map({ $0 | 0x20 }) == Array("<!doctype".utf8).map({ $0 | 0x20 }):
                // `<!doctype` too: XML refuses it, but HTML's parser reads it.
                return index
            default:
                return nil
            }
        }
        return nil
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
