// SPDX-License-Identifier: GPL-3.0-or-later
/// Why an HTTP request got no complete response: the network failed, not the server's answer.
///
/// An answer with an error status (404, 503) is not an `HTTPError`: it is a response, and the caller
/// (`RemoteResource`) decides what it means.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
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

    public var code: Code
    /// The URL requested.
    public var url: String
    /// What went wrong, for a person; does not repeat the URL.
    public var message: String
    /// The HTTP library's own status (a `CURLcode`), when there is one.
    public var libraryStatus: Int32?

    public init(_ code: Code, url: String, message: String, libraryStatus: Int32? = nil) {
        self.code = code
        self.url = url
        self.message = message
        self.libraryStatus = libraryStatus
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

    public var description: String { "\(url): \(message)" }
}

extension HTTPError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { url }
    public var underlyingStatus: Int32? { libraryStatus }
}
