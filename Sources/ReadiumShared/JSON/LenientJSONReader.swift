// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Reads a JSON object the way Readium does: tolerant of an author's mistakes, each one logged.
///
/// `path` is where the object sits in its document (`metadata.author[0]`), so a warning tells a user
/// exactly which value to fix.
public struct LenientJSONReader: Sendable {
    public let object: JSONObject
    public let source: String
    public let path: String
    public let log: WarningLog

    public init(_ object: JSONObject, source: String, path: String = "", log: WarningLog) {
        self.object = object
        self.source = source
        self.path = path
        self.log = log
    }

    /// The path of `key` below this object.
    public func path(of key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    public func warn(_ key: String?, _ message: String) {
        log.append(ParsingWarning(source: source, path: key.map(path(of:)) ?? path, message: message))
    }

    /// A reader for the object under `key`, or nil (with a warning if something else is there).
    public func child(_ key: String) -> LenientJSONReader? {
        guard let value = object[key] else { return nil }
        guard let child = value.objectValue else {
            warn(key, "expected an object, found \(value.kindName); ignored")
            return nil
        }
        return LenientJSONReader(child, source: source, path: path(of: key), log: log)
    }

    /// A string; a number or boolean is converted with a warning.
    public func string(_ key: String) -> String? {
        guard let value = object[key], value != .null else { return nil }
        switch value {
        case .string(let string): return string
        case .integer, .number, .bool:
            warn(key, "expected a string, found \(value.kindName); converted")
            return value.serialized()
        default:
            warn(key, "expected a string, found \(value.kindName); ignored")
            return nil
        }
    }

    /// A list of strings; a single string stands for a list of one (as the RWPM allows).
    public func strings(_ key: String) -> [String] {
        guard let value = object[key], value != .null else { return [] }
        switch value {
        case .string(let string): return [string]
        case .array(let values):
            return values.enumerated().compactMap { index, item in
                if let string = item.stringValue { return string }
                warn("\(key)[\(index)]", "expected a string, found \(item.kindName); ignored")
                return nil
            }
        default:
            warn(key, "expected a string or an array of strings, found \(value.kindName); ignored")
            return []
        }
    }

    /// A number; a numeric string is accepted with a warning. NaN and infinities are refused.
    public func double(_ key: String) -> Double? {
        guard let value = object[key], value != .null else { return nil }
        if let double = value.doubleValue { return double }
        if let string = value.stringValue, let double = Double(string.trimmingWhitespace), double.isFinite {
            warn(key, "expected a number, found a string; converted")
            return double
        }
        warn(key, "expected a number, found \(value.kindName); ignored")
        return nil
    }

    /// A number that must be positive (durations, bitrates); zero or negative is dropped with a warning.
    public func positiveDouble(_ key: String) -> Double? {
        guard let double = double(key) else { return nil }
        guard double > 0 else {
            warn(key, "must be positive, found \(JSONValue.number(of: double).serialized()); ignored")
            return nil
        }
        return double
    }

    /// A whole number; a whole decimal or numeric string is accepted with a warning.
    public func integer(_ key: String) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        if case .integer(let integer) = value, let int = Int(exactly: integer) { return int }
        if let double = self.double(key), double.rounded() == double, let int = Int(exactly: double) {
            if value.stringValue == nil { warn(key, "expected an integer, found a decimal; converted") }
            return int
        }
        if value.doubleValue != nil { warn(key, "expected an integer, found a fraction; ignored") }
        return nil
    }

    /// A positive whole number (page counts, dimensions).
    public func positiveInteger(_ key: String) -> Int? {
        guard let integer = integer(key) else { return nil }
        guard integer > 0 else {
            warn(key, "must be positive, found \(integer); ignored")
            return nil
        }
        return integer
    }

    public func bool(_ key: String) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        if let bool = value.boolValue { return bool }
        if let string = value.stringValue?.lowercased(), string == "true" || string == "false" {
            warn(key, "expected a boolean, found a string; converted")
            return string == "true"
        }
        warn(key, "expected a boolean, found \(value.kindName); ignored")
        return nil
    }

    /// The values under `key` as a list of objects; a single object stands for a list of one.
    public func objects(_ key: String) -> [LenientJSONReader] {
        guard let value = object[key], value != .null else { return [] }
        switch value {
        case .object(let object):
            return [LenientJSONReader(object, source: source, path: path(of: key), log: log)]
        case .array(let values):
            return values.enumerated().compactMap { index, item in
                guard let object = item.objectValue else {
                    warn("\(key)[\(index)]", "expected an object, found \(item.kindName); ignored")
                    return nil
                }
                return LenientJSONReader(object, source: source, path: "\(path(of: key))[\(index)]", log: log)
            }
        default:
            warn(key, "expected an array of objects, found \(value.kindName); ignored")
            return []
        }
    }

    /// The keys of this object not in `known`, kept so they survive a round trip.
    public func otherKeys(excluding known: Set<String>) -> JSONObject {
        var others = JSONObject()
        for (key, value) in object where !known.contains(key) {
            others[key] = value
        }
        return others
    }
}

extension String {
    var trimmingWhitespace: String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
