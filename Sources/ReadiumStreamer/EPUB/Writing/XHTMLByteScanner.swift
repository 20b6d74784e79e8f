// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A small scanner of an XHTML document's UTF-8 bytes that keeps where everything is: each element's
/// start and end tags, and each character of its text (entities decoded, CDATA kept, comments and
/// processing instructions left out, `\r\n` read as `\n` as an XML parser does).
///
/// It does not validate: the bytes are those of a document the EPUB parser already read. Markup is
/// inserted at the offsets it gives, so that everything else in the file stays byte for byte.
struct XHTMLByteScanner {
    /// A run of character data: a text node or a CDATA section.
    struct TextNode {
        /// The decoded text.
        var text: String
        var isCDATA: Bool
        /// For each UTF-8 offset of `text`, the byte offset in the document where its character is written.
        var byteOffsets: [Int]
        /// The byte offset just past the node.
        var end: Int = 0
    }

    enum Child {
        case element(Int)
        case text(TextNode)
    }

    struct Element {
        var qualifiedName: String
        var localName: String { qualifiedName.split(separator: ":").last.map(String.init) ?? qualifiedName }
        var attributes: [String: String]
        /// The bytes of the start tag, `<` to `>` included.
        var startTag: Range<Int>
        /// Where the element's content starts and ends (equal for `<br/>`).
        var content: Range<Int>
        /// The bytes of the end tag; nil for an empty-element tag.
        var endTag: Range<Int>?
        var children: [Child] = []
        var parent: Int?
        var isSelfClosing: Bool { endTag == nil }
    }

    let bytes: [UInt8]
    private(set) var elements: [Element] = []

    /// Scans `data`; nil when it is not UTF-8 or its tags do not nest.
    init?(data: Data) {
        bytes = [UInt8](data)
        guard String(bytes: bytes, encoding: .utf8) != nil, scan() else { return nil }
    }

    var root: Int? { elements.isEmpty ? nil : 0 }

    /// Every value of an `id` attribute in the document.
    var identifiers: Set<String> { Set(elements.compactMap { $0.attributes["id"] }) }

    private mutating func scan() -> Bool {
        var stack: [Int] = []
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var text = TextNode(text: "", isCDATA: false, byteOffsets: [])
        func flushText(into elements: inout [Element]) {
            text.end = position
            guard !text.text.isEmpty, let parent = stack.last else {
                text = TextNode(text: "", isCDATA: false, byteOffsets: [])
                return
            }
            elements[parent].children.append(.text(text))
            text = TextNode(text: "", isCDATA: false, byteOffsets: [])
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if hasPrefix("<!--", at: position) {
                    guard let end = find("-->", from: position + 4) else { return false }
                    position = end + 3
                } else if hasPrefix("<![CDATA[", at: position) {
                    flushText(into: &elements)
                    guard let end = find("]]>", from: position + 9) else { return false }
                    let start = position + 9
                    var node = TextNode(text: String(decoding: bytes[start..<end], as: UTF8.self), isCDATA: true, byteOffsets: [])
                    node.byteOffsets = Array(start..<end)
                    node.end = end
                    if let parent = stack.last { elements[parent].children.append(.text(node)) }
                    position = end + 3
                } else if hasPrefix("<?", at: position) {
                    guard let end = find("?>", from: position + 2) else { return false }
                    position = end + 2
                } else if hasPrefix("<!", at: position) {
                    guard let end = declarationEnd(from: position) else { return false }
                    position = end
                } else if hasPrefix("</", at: position) {
                    flushText(into: &elements)
                    guard let end = tagEnd(from: position), let open = stack.popLast() else { return false }
                    let name = String(decoding: bytes[(position + 2)..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard name == elements[open].qualifiedName else { return false }
                    elements[open].content = elements[open].content.lowerBound..<position
                    elements[open].endTag = position..<(end + 1)
                    position = end + 1
                } else {
                    flushText(into: &elements)
                    guard let end = tagEnd(from: position) else { return false }
                    let selfClosing = bytes[end - 1] == UInt8(ascii: "/")
                    let inside = String(decoding: bytes[(position + 1)..<(selfClosing ? end - 1 : end)], as: UTF8.self)
                    let (name, attributes) = Self.parseTag(inside)
                    let index = elements.count
                    elements.append(Element(qualifiedName: name, attributes: attributes, startTag: position..<(end + 1),
                                            content: (end + 1)..<(end + 1), endTag: nil, parent: stack.last))
                    if let parent = stack.last { elements[parent].children.append(.element(index)) }
                    if !selfClosing { stack.append(index) }
                    position = end + 1
                }
            } else if byte == UInt8(ascii: "&") {
                guard let semicolon = bytes[position...].prefix(40).firstIndex(of: UInt8(ascii: ";")) else { return false }
                let name = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
                guard let decoded = Self.decodeEntity(name) else { return false }
                for _ in decoded.utf8 { text.byteOffsets.append(position) }
                text.text += decoded
                position = semicolon + 1
            } else if byte == 0x0D {
                text.byteOffsets.append(position)
                text.text += "\n"
                position += bytes.count > position + 1 && bytes[position + 1] == 0x0A ? 2 : 1
            } else {
                // One UTF-8 scalar, all its bytes.
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(position + length, bytes.count)
                for offset in position..<end { text.byteOffsets.append(offset) }
                text.text += String(decoding: bytes[position..<end], as: UTF8.self)
                position = end
            }
        }
        flushText(into: &elements)
        return stack.isEmpty && !elements.isEmpty
    }

    private func hasPrefix(_ prefix: String, at position: Int) -> Bool {
        let prefixBytes = Array(prefix.utf8)
        return position + prefixBytes.count <= bytes.count && Array(bytes[position..<(position + prefixBytes.count)]) == prefixBytes
    }

    private func find(_ needle: String, from start: Int) -> Int? {
        let needleBytes = Array(needle.utf8)
        var index = start
        while index + needleBytes.count <= bytes.count {
            if bytes[index] == needleBytes[0], Array(bytes[index..<(index + needleBytes.count)]) == needleBytes { return index }
            index += 1
        }
        return nil
    }

    /// The `>` that ends the tag starting at `start`, outside quoted attribute values.
    private func tagEnd(from start: Int) -> Int? {
        XMLPreprocessor.tagEnd(in: bytes, from: start + 1)
    }

    /// Just past a `<!DOCTYPE …>` (an internal subset in brackets included).
    private func declarationEnd(from start: Int) -> Int? {
        var depth = 0
        var index = start + 2
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return index + 1
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The name and attributes of a start tag's inside (`p class="x"`).
    static func parseTag(_ inside: String) -> (String, [String: String]) {
        let scalars = Array(inside.unicodeScalars)
        var index = 0
        func skipSpace() { while index < scalars.count, CharacterSet.whitespacesAndNewlines.contains(scalars[index]) { index += 1 } }
        func readName() -> String {
            var name = ""
            while index < scalars.count, !CharacterSet.whitespacesAndNewlines.contains(scalars[index]), scalars[index] != "=" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            return name
        }
        let name = readName()
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard index < scalars.count else { break }
            let attribute = readName()
            skipSpace()
            guard index < scalars.count, scalars[index] == "=" else {
                if attribute.isEmpty { index += 1 }
                continue
            }
            index += 1
            skipSpace()
            guard index < scalars.count else { break }
            let quote = scalars[index]
            index += 1
            var value = ""
            while index < scalars.count, scalars[index] != quote {
                value.unicodeScalars.append(scalars[index])
                index += 1
            }
            index += 1
            attributes[attribute] = decodeAttribute(value)
        }
        return (name, attributes)
    }

    private static func decodeAttribute(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var result = ""
        var rest = Substring(value)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";"),
                  let decoded = decodeEntity(String(rest[rest.index(after: ampersand)..<semicolon])) else {
                result += rest[ampersand...]
                return result
            }
            result += decoded
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The characters of `&name;`: numeric, XML's five, or an HTML named entity.
    static func decodeEntity(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: return HTMLEntities.characters(for: name)
        }
    }
}

extension XHTMLByteScanner {
    /// The text of `element` as `textContent` gives it, with the document's byte offset of each UTF-8 offset
    /// (one past the end included) and the text node each offset falls in.
    func textContent(of element: Int) -> (text: String, byteOffsets: [Int]) {
        var text = ""
        var offsets: [Int] = []
        func append(_ index: Int) {
            for child in elements[index].children {
                switch child {
                case .element(let child): append(child)
                case .text(let node):
                    text += node.text
                    offsets += node.byteOffsets.prefix(node.text.utf8.count)
                }
            }
        }
        append(element)
        offsets.append(elements[element].content.upperBound)
        return (text, offsets)
    }

    /// The element a `cssSelector` of the content extractor names: `#id`, or a path of `name` and
    /// `name:nth-child(n)` steps from the root joined by ` > `.
    func element(matching selector: String) -> Int? {
        if selector.hasPrefix("#"), !selector.contains(" ") {
            let id = String(selector.dropFirst())
            let matches = elements.indices.filter { elements[$0].attributes["id"] == id }
            return matches.count == 1 ? matches[0] : nil
        }
        let steps = selector.components(separatedBy: " > ")
        guard let root, let first = steps.first, first == elements[root].localName else { return nil }
        var current = root
        for step in steps.dropFirst() {
            let childElements = elements[current].children.compactMap { child -> Int? in
                if case .element(let index) = child { return index }
                return nil
            }
            if let open = step.range(of: ":nth-child("), step.hasSuffix(")") {
                let name = String(step[..<open.lowerBound])
                guard let position = Int(step[open.upperBound...].dropLast()), position >= 1, position <= childElements.count,
                      elements[childElements[position - 1]].localName == name else { return nil }
                current = childElements[position - 1]
            } else {
                guard let next = childElements.first(where: { elements[$0].localName == step }) else { return nil }
                current = next
            }
        }
        return current
    }
}
