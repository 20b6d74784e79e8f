// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension JSONValue {
    /// How `serialized` lays the text out.
    public enum Layout: Sendable {
        /// One line, no spaces: for JSON-lines event streams.
        case compact
        /// Indented by two spaces: for people.
        case pretty
    }

    /// The JSON text of this value, keys in their stored order, slashes not escaped.
    public func serialized(_ layout: Layout = .compact) -> String {
        var output = ""
        write(to: &output, layout: layout, indent: 0)
        return output
    }

    /// Parses JSON text; see `JSONParser` for the errors.
    public init(parsing data: some Collection<UInt8>) throws(JSONParser.SyntaxError) {
        self = try JSONParser.parse(data)
    }

    private func write(to output: inout String, layout: Layout, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += Self.format(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            guard !values.isEmpty else { output += "[]"; return }
            output += "["
            for (position, value) in values.enumerated() {
                if position > 0 { output += "," }
                Self.newline(&output, layout: layout, indent: indent + 1)
                value.write(to: &output, layout: layout, indent: indent + 1)
            }
            Self.newline(&output, layout: layout, indent: indent)
            output += "]"
        case .object(let object):
            guard !object.isEmpty else { output += "{}"; return }
            output += "{"
            for (position, entry) in object.enumerated() {
                if position > 0 { output += "," }
                Self.newline(&output, layout: layout, indent: indent + 1)
                Self.writeString(entry.key, to: &output)
                output += layout == .pretty ? ": " : ":"
                entry.value.write(to: &output, layout: layout, indent: indent + 1)
            }
            Self.newline(&output, layout: layout, indent: indent)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, layout: Layout, indent: Int) {
        guard layout == .pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Shortest text that reads back as the same Double (Swift's description does that).
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    output += String(format: "\\u%04x", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}
