// SPDX-License-Identifier: GPL-3.0-or-later
/// Why content cannot be iterated: an unknown starting href, an unreadable resource...
public struct ContentError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The publication has no content service (an audiobook, a format without text).
        case unsupported
        /// The starting locator's href is not in the reading order.
        case unknownHref
        /// A resource could not be read at all.
        case unreadableResource
    }

    public var code: Code
    /// The href concerned, empty when none.
    public var href: String
    public var message: String

    public init(_ code: Code, href: String, message: String) {
        self.code = code
        self.href = href
        self.message = message
    }

    public var description: String { href.isEmpty ? message : "\(href): \(message)" }
}
