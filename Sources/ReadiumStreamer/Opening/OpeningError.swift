// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a publication could not be opened; the subject is the path or href concerned.
public typealias OpeningError = RAudioError<OpeningErrorDomain>

/// The domain of `OpeningError`; its codes are words of `RAudioErrorCode`.
public enum OpeningErrorDomain: RAudioErrorDomain {}

extension OpeningError {
    /// Wraps a resource error, keeping its code (`not-found`, `bad-data`, `forbidden-href`, `io`) or the
    /// opening code that says the same of a publication, and it as the cause.
    public init(_ error: ResourceError, file: String = #fileID, function: String = #function, line: Int = #line) {
        let code: Code = switch error.code {
        case .tooLarge: .forbidden
        case .remote: .unsupported
        case .remoteUnavailable, .remoteUnreachable: .publicationUnavailable
        default: error.code
        }
        self.init(code, path: error.href, message: error.message, cause: error, file: file, function: function, line: line)
    }
}
