// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a publication could not be opened.
public struct OpeningError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The path does not exist.
        case notFound = "not-found"
        /// The file is unreadable, corrupt, or not a publication (empty, truncated, not a ZIP, no manifest...).
        case badData = "bad-data"
        /// A publication of a kind raudio does not open (an LCP license alone, a PDF, ...).
        case unsupported = "unsupported"
        /// An href leaves the publication, or a resource is too large to be safe.
        case forbidden = "forbidden-href"
        /// The operating system failed to read it.
        case io = "io"
        /// A remote publication's server is unreachable, refuses it, or keeps failing.
        case unavailable = "unavailable"
    }

    public var code: Code
    /// The path or href concerned.
    public var path: String
    /// What went wrong, for a person; does not repeat the path.
    public var message: String

    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// Wraps a resource error, keeping its category.
    public init(_ error: ResourceError) {
        let code: Code = switch error.code {
        case .notFound: .notFound
        case .badData: .badData
        case .forbidden, .tooLarge: .forbidden
        case .remote: .unsupported
        case .unavailable, .unreachable: .unavailable
        case .io: .io
        }
        self.init(code, path: error.href, message: error.message)
    }

    public var description: String { "\(path): \(message)" }
}
