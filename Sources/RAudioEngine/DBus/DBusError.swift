// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A failed sd-bus call: which C function failed and its status (a negative errno).
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sd-bus function that failed, such as `sd_bus_open_user`.
    public var function: String
    /// What sd-bus returned: a negative errno value.
    public var code: Int32
    /// What was being done, for a person.
    public var message: String

    public init(_ function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(function): \(String(cString: strerror(-code))))" }

    /// Throws when `status` (the return value of `function`) is negative.
    @discardableResult
    static func check(_ status: Int32, _ function: String, _ message: @autoclosure () -> String) throws(DBusError) -> Int32 {
        if status < 0 { throw DBusError(function, code: status, message: message()) }
        return status
    }
}
