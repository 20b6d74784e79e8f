// SPDX-License-Identifier: GPL-3.0-or-later
/// Why an HTTP request got no complete response: the network failed, not the server's answer.
///
/// An answer with an error status (404, 503) is not an `HTTPError`: it is a response, and the caller
/// (`RemoteResource`) decides what it means. The subject is the URL requested; `underlyingStatus` is the
/// HTTP library's own status (a `CURLcode`), when there is one.
public typealias HTTPError = RAudioError<HTTPErrorCode>

/// The category of an `HTTPError`.
public enum HTTPErrorCode: String, RAudioErrorCode {
    /// The URL is not an `http://` or `https://` URL raudio may fetch.
    case invalidURL = "url-invalid"
    /// The host name does not resolve.
    case hostNotFound = "host-not-found"
    /// The host refused the connection or cannot be reached.
    case unreachable = "host-unreachable"
    /// The TLS handshake or the server's certificate failed.
    case tls = "tls-failed"
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects = "too-many-redirects"
    /// No byte arrived for too long (connecting or receiving).
    case timedOut = "timed-out"
    /// The connection broke before the response was complete.
    case connectionLost = "connection-lost"
    /// Anything else the HTTP library reported.
    case other = "http-failed"
}

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
        case .connectionLost, .timedOut, .unreachable, .other: true
        case .invalidURL, .hostNotFound, .tls, .tooManyRedirects: false
        }
    }

    /// Whether no connection to the server could be made at all (rather than one request failing).
    public var leavesTheServerUnreachable: Bool { code == .unreachable || code == .hostNotFound }
}
