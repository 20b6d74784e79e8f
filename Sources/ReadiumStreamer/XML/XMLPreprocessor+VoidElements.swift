// SPDX-License-Identifier: GPL-3.0-or-later
extension XMLPreprocessor {
    /// `bytes` (an HTML page, UTF-8) with each start tag of a void element that is not closed (`<br>`,
    /// `<img src="a.png">`) written as an empty-element tag (`<br/>`), so that the XML parser does not nest
    /// the rest of the page inside it.
    ///
    /// A void element followed by its own end tag (`<br></br>`) is left as it is; comments, CDATA
    /// sections, processing instructions, the DOCTYPE and the contents of `script` and `style` are copied
    /// untouched. A `>` inside a quoted attribute value does not end a tag (`tagEnd`). Pure.
    static func closingVoidElements(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 64)
        var index = 0
        let count = bytes.count
        /// Whether an end tag `</name` (lowercase) starts at `position`, in any case.
        func endTagStarts(_ name: String, at position: Int) -> Bool {
            let pattern = Array("</\(name)".utf8)
            guard position + pattern.count <= count else { return false }
            return pattern.indices.allSatisfy { lowercased(bytes[position + $0]) == pattern[$0] }
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            // Comments, CDATA sections, processing instructions and the DOCTYPE are copied as they are (any other
            // `<!` or `<?` has no name, and is copied a byte at a time below).
            if let end = endOfSkippedSection(bytes, at: index) {
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            var nameEnd = index + 1
            while nameEnd < count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let name = String(decoding: bytes[(index + 1)..<nameEnd].map(lowercased), as: UTF8.self)
            guard !name.isEmpty, let tagEnd = tagEnd(in: bytes, from: nameEnd) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output.append(contentsOf: bytes[index..<tagEnd])
            var next = tagEnd + 1
            if XMLDocument.voidElements.contains(name), bytes[..<tagEnd].last(where: { !isSpace($0) }) != UInt8(ascii: "/") {
                var after = next
                while after < count, isSpace(bytes[after]) { after += 1 }
                if !endTagStarts(name, at: after) { output.append(UInt8(ascii: "/")) }
            }
            output.append(UInt8(ascii: ">"))
            if name == "script" || name == "style" {
                var end = next
                while end < count && !endTagStarts(name, at: end) { end += 1 }
                output.append(contentsOf: bytes[next..<end])
                next = end
            }
            index = next
        }
        return output
    }

    /// The index of the first `>` from `start` on that is outside a quoted attribute value (the end of a tag
    /// whose name ends before `start`); nil when there is none.
    static func tagEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
