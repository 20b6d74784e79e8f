// SPDX-License-Identifier: GPL-3.0-or-later
/// The compact JSON text of a value written as UTF-8 bytes: the same text as `serialized()`, made
/// for event streams that write tens of thousands of lines (a `range` event per word).
///
/// `serialized()` builds a `String` scalar by scalar; this appends runs of bytes that need no escape
/// in one copy each, straight into a byte buffer the caller reuses or writes out. Any thread (pure).
extension JSONValue {
    /// Appends the compact JSON text of this value (byte for byte `serialized()`'s) to `bytes`.
    public func appendCompactUTF8(to bytes: inout [UInt8]) {
        switch self {
        case .null: Self.appendASCII("null", to: &bytes)
        case .bool(let value): Self.appendASCII(value ? "true" : "false", to: &bytes)
        case .integer, .number: Self.appendASCII(serialized(), to: &bytes)
        case .string(let value): Self.appendStringUTF8(value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                value.appendCompactUTF8(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (position, entry) in object.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendStringUTF8(entry.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                entry.value.appendCompactUTF8(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text as UTF-8 bytes (see `appendCompactUTF8(to:)`).
    public var compactUTF8: [UInt8] {
        var bytes: [UInt8] = []
        appendCompactUTF8(to: &bytes)
        return bytes
    }

    private static func appendASCII(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped as `serialized()` does, and
    /// U+2028/U+2029 (E2 80 A8/A9) as `\u2028`/`\u2029`; every other byte copied in runs.
    static func appendStringUTF8(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                let escape: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                case ..<0x20: escape = nil
                default:
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                if let escape {
                    escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
                } else {
                    appendControlEscape(byte, to: &bytes)
                }
                index += length
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u00XX` in lower-case hexadecimal, as `String(format: "\\u%04x")` writes it.
    private static func appendControlEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: "\\u00".utf8)
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0x0F)])
    }
}
