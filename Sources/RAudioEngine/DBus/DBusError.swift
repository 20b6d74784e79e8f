// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A failed sd-bus call: what was being done, and as its cause the C function that failed and its status
/// (a negative errno, also the error's `underlyingStatus`).
public typealias DBusError = RAudioError<DBusErrorDomain>

/// The domain of `DBusError`; its codes are words of `RAudioErrorCode`.
public enum DBusErrorDomain: RAudioErrorDomain {
    /// The message, and the function and its status in words after it.
    public static func describe(_ error: DBusError) -> String {
        guard let cause = error.cause else { return error.plainDescription }
        return "\(error.plainDescription) (\(cause))"
    }
}

/// A C function that returned a negative errno value: `sd_bus_open_user: No such file or directory`.
public struct CFunctionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function, such as `sd_bus_open_user`.
    public var function: String
    /// What it returned: a negative errno value.
    public var status: Int32

    public var description: String { "\(function): \(String(cString: strerror(-status)))" }
}

extension DBusError {
    /// The error of `function`, which returned `status`, while doing what `message` says.
    public init(_ function: String, code status: Int32, message: String,
                file: String = #fileID, callingFunction: String = #function, line: Int = #line) {
        self.init(.dbusCallFailed, message: message, underlyingStatus: status, cause: CFunctionFailure(function: function, status: status),
                  file: file, function: callingFunction, line: line)
    }

    /// The sd-bus function that failed, such as `sd_bus_open_user`.
    public var function: String { (cause as? CFunctionFailure)?.function ?? "" }

    /// Throws when `status` (the return value of `function`) is negative.
    @discardableResult
    static func check(_ status: Int32, _ function: String, _ message: @autoclosure () -> String,
                      file: String = #fileID, callingFunction: String = #function, line: Int = #line) throws(DBusError) -> Int32 {
        if status < 0 {
            throw DBusError(function, code: status, message: message(), file: file, callingFunction: callingFunction, line: line)
        }
        return status
    }
}
