// SPDX-License-Identifier: GPL-3.0-or-later
/// A D-Bus value of the few types MPRIS needs, with its type signature.
///
/// Built by the code that answers method calls and emits signals; `DBusMessage.append(_:)` writes it
/// into a message with sd-bus's non-variadic calls.
public indirect enum DBusValue: Sendable, Equatable {
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    case string(String)
    case objectPath(String)
    /// An array whose elements all have the signature `elementSignature` (given, so an empty array has a type).
    case array(elementSignature: String, [DBusValue])
    /// A dictionary of string keys to variants (`a{sv}`), appended in key order.
    case dictionary([String: DBusValue])
    case variant(DBusValue)

    /// `as`: an array of strings.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map(DBusValue.string))
    }

    /// The D-Bus type signature of this value (`b`, `x`, `as`, `a{sv}`, ...).
    public var signature: String {
        switch self {
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .array(let element, _): "a" + element
        case .dictionary: "a{sv}"
        case .variant: "v"
        }
    }

    /// The value inside a variant (itself for any other value).
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The number in a `d`, `x`, `i` or `u` value.
    public var doubleValue: Double? {
        switch unwrapped {
        case .double(let value): value
        case .int64(let value): Double(value)
        case .int32(let value): Double(value)
        case .uint32(let value): Double(value)
        default: nil
        }
    }
}
