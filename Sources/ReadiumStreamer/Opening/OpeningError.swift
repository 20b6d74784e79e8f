// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a publication could not be opened; the subject is the path or href concerned.
public typealias OpeningError = RAudioError<OpeningErrorCode>

/// The category of an `OpeningError`.
public enum OpeningErrorCode: String, RAudioErrorCode {
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

extension OpeningError {
    /// Wraps a resource error, keeping its category, and it as the cause.
    public init(_ error: ResourceError, file: String = #fileID, function: String = #function, line: Int = #line) {
        let code: Code = switch error.code {
        case .notFound: .notFound
        case .badData: .badData
        case .forbidden, .tooLarge: .forbidden
        case .remote: .unsupported
        case .unavailable, .unreachable: .unavailable
        case .io: .io
        }
        self.init(code, path: error.href, message: error.message, cause: error, file: file, function: function, line: line)
    }
}
