// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The canonical form of a licence that its signature covers (LCP specification 5.3, "Canonical form").
///
/// The licence without its `signature` member, keys sorted by Unicode code point at every level, no whitespace,
/// strings with minimal escaping (`"`, `\`, control characters) and every other character as raw UTF-8:
/// `é` stays two bytes, never `\u00e9`, or a licence with accented user fields fails to verify.
public enum CanonicalJSON {
    /// The canonical UTF-8 bytes of `value`, with the top-level `signature` member removed.
    public static func licenseBytes(of value: JSONValue) -> [UInt8] {
        var stripped = value
        if case .object(var object) = value {
            object["signature"] = nil
            stripped = .object(object)
        }
        return bytes(of: stripped)
    }

    /// The canonical UTF-8 bytes of any JSON value.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .integer(let integer): output += Array(String(integer).utf8)
        case .number(let number):
            // Licences hold integers only; a decimal is written as Swift's shortest round-trip form.
            if number.rounded() == number, let integer = Int64(exactly: number) {
                output += Array(String(integer).utf8)
            } else {
                output += Array("\(number)".utf8)
            }
        case .string(let string): writeString(string, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            let keys = object.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(object[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += [0x5C, 0x22]
            case "\\": output += [0x5C, 0x5C]
            case "\n": output += [0x5C, UInt8(ascii: "n")]
            case "\r": output += [0x5C, UInt8(ascii: "r")]
            case "\t": output += [0x5C, UInt8(ascii: "t")]
            case "\u{08}": output += [0x5C, UInt8(ascii: "b")]
            case "\u{0C}": output += [0x5C, UInt8(ascii: "f")]
            default:
                if scalar.value < 0x20 {
                    let hex = Array("0123456789abcdef".utf8)
                    output += Array("\\u00".utf8)
                    output.append(hex[Int(scalar.value >> 4)])
                    output.append(hex[Int(scalar.value & 0xF)])
                } else {
                    output += Array(String(scalar).utf8)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
