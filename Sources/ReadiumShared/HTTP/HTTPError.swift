// SPDX-License-Identifier: GPL-3.0-or-later
/// Why an HTTP request got no complete response: the network failed, not the server's answer.
///
/// An answer with an error status (404, 503) is not an `HTTPError`: it is a response, and the caller
/// (`RemoteResource`) decides what it means. The subject is the URL requested; `underlyingStatus` is the
/// HTTP library's own status (a `CURLcode`), when there is one.
public typealias HTTPError = RAudioError<HTTPErrorDomain>

/// The domain of `HTTPError`; its codes are words of `RAudioErrorCode`.
public enum HTTPErrorDomain: RAudioErrorDomain {}

extension HTTPError {
    /// The HTTP library's own status (a `CURLcode`), when there is one.
    public var libraryStatus: Int32? { underlyingStatus }

    public init(_ code: Code, url: String, message: String, libraryStatus: Int32?,
                file: String = #fileID, function: String = #function, line: Int = #line) {
        self.init(code, subject: url, message: message, underlyingStatus: libraryStatus, file: file, function: function, line: line)
    }

    /// Whether trying again later may succeed (a lost connection, a timeout, a server that restarts).
    public var isTransient: Bool {
        switch code {
        case .connectionLost, .timedOut, .hostUnreachable, .httpFailed: true
        // .invalidURL, .hostNotFound, .tls, .tooManyRedirects: trying again gives the same answer.
        default: false
        }
    }

    /// Whether no connection to the server could be made at all (rather than one request failing).
    public var leavesTheServerUnreachable: Bool { code == .hostUnreachable || code == .hostNotFound }
}
