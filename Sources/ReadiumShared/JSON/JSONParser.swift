// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A strict JSON parser (RFC 8259) that reports where a document breaks, by line and column.
///
/// Foundation's parsers neither keep key order nor say where a trailing comma is; a user fixing a
/// manifest needs both. Nesting is limited to 512 levels so hostile input cannot exhaust the stack.
public struct JSONParser {
    /// Where and why a document is not valid JSON.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var rejectsDuplicateKeys = false

    /// Parses one JSON document. A UTF-8 byte order mark is accepted.
    ///
    /// With `rejectingDuplicateKeys`, an object naming a key twice is an error (RFC 8259 leaves its
    /// meaning open: a command `{"command":"status","command":"quit"}` must not be read either way).
    /// Without it, the last value wins, as in most parsers.
    public static func parse(_ data: some Collection<UInt8>, rejectingDuplicateKeys: Bool = false) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(data))
        parser.rejectsDuplicateKeys = rejectingDuplicateKeys
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    public static func parse(_ string: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(string.utf8))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of the document, a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()), a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeCurrent()), a key in double quotes was expected")
            }
            let keyStart = index
            let key = try parseString()
            if rejectsDuplicateKeys && object[key] != nil {
                index = keyStart
                throw error("the key \"\(key.prefix(40))\" appears twice in the object")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; return .object(object) }
            throw error("unexpected \(describeCurrent()), ',' or '}' was expected")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return .array(array) }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
            array.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; return .array(array) }
            throw error("unexpected \(describeCurrent()), ',' or ']' was expected")
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var utf8Run: [UInt8] = []
        func flushRun(_ end: Int, into scalars: inout String.UnicodeScalarView) {
            if runStart < end {
                utf8Run = Array(bytes[runStart..<end])
                scalars.append(contentsOf: String(decoding: utf8Run, as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun(index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                flushRun(index, into: &scalars)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
                continue
            }
            index += 1
        }
        throw error("unterminated string")
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        return Unicode.Scalar(value) ?? "\u{FFFD}"
                    }
                }
                return "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("invalid escape sequence '\\\(describeCurrent())'")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hexadecimal digit in a \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("numbers cannot start with 0")
        }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit must follow the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw error("number \(text) is out of range") }
        return .number(double)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected \(describeCurrent()), a value was expected")
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of the document" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private func error(_ message: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SyntaxError(line: line, column: column, message: message)
    }
}
