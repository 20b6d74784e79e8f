// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Performs HTTP(S) requests for remote publications: the manifest, and byte ranges of their tracks.
///
/// The protocol keeps ReadiumShared free of any network library: raudio's implementation
/// (`CurlHTTPClient` in RAudioEngine) wraps libcurl. Calls block the calling thread until the response
/// ends, so call them from a thread of your own (a decoder's, a read-ahead thread), never from Swift's
/// cooperative pool in a loop. Implementations are safe to call from several threads at once.
public protocol HTTPClient: Sendable {
    /// Performs `request`, following redirects (a bounded number), and returns the head of the final
    /// response, whatever its status.
    ///
    /// `receive` is called on the calling thread with the final response's head and each chunk of its
    /// body as it arrives; returning false ends the transfer early (not an error). `shouldStop` is polled
    /// while waiting on the network (at least once a second); returning true ends the transfer too.
    /// Throws `HTTPError` when no complete response arrived: unreachable host, DNS or TLS failure,
    /// redirect loop, timeout, or a connection lost mid-body.
    func perform(
        _ request: HTTPRequest, shouldStop: () -> Bool, receive: (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead
}

/// A request: a GET for the whole resource or a range of its bytes, or a PUT or POST without a body (what
/// Readium LCP's status document links ask: register, renew, return; their parameters go in the URL).
public struct HTTPRequest: Sendable, Equatable {
    /// The HTTP method. Only GET is redirected as such; libcurl turns a POST answered by 301-303 into a GET,
    /// as browsers do.
    public enum Method: String, Sendable, Equatable {
        case get = "GET", put = "PUT", post = "POST"
    }

    public var url: String
    public var method: Method
    /// The bytes wanted (`Range: bytes=lower-(upper-1)`); nil for the whole resource. An upper bound of
    /// `UInt64.max` asks for everything from the lower bound (`bytes=lower-`).
    public var range: Range<UInt64>?
    /// Whether the server may send the body compressed (gzip, deflate, brotli), decompressed on arrival.
    /// For manifests only: a compressed track would break byte ranges.
    public var acceptsCompression: Bool
    /// More request headers by name (`If-None-Match`, `Authorization`, `Accept`); empty for most requests.
    ///
    /// An `Authorization` header is sent to `url`'s host only: the client drops it on a redirect to another host.
    public var headers: [String: String]

    public init(
        url: String, method: Method = .get, range: Range<UInt64>? = nil, acceptsCompression: Bool = false, headers: [String: String] = [:]
    ) {
        self.url = url
        self.method = method
        self.range = range
        self.acceptsCompression = acceptsCompression
        self.headers = headers
    }

    /// The value of the `Range` header, or nil for the whole resource.
    public var rangeHeaderValue: String? {
        guard let range else { return nil }
        if range.upperBound == .max { return "bytes=\(range.lowerBound)-" }
        return "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
    }
}

/// The status line and headers of a response.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The HTTP status (200, 206, 404...); 0 when no response arrived.
    public var status: Int
    /// The URL that answered, after redirects.
    public var url: String
    /// Header values by lower-cased name (the last one wins when a header repeats).
    public var headers: [String: String]

    public init(status: Int, url: String, headers: [String: String] = [:]) {
        self.status = status
        self.url = url
        self.headers = headers
    }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// `Content-Length`, when present and a number.
    public var contentLength: UInt64? {
        headers["content-length"].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `Content-Range: bytes first-last/total` of a 206 response (`total` nil when it is `*`), or of a
    /// 416 (`bytes */total`: `first` and `last` nil).
    public var contentRange: (first: UInt64?, last: UInt64?, total: UInt64?)? {
        guard let value = headers["content-range"]?.trimmingCharacters(in: .whitespaces), value.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let total = UInt64(parts[1].trimmingCharacters(in: .whitespaces))
        let span = parts[0].trimmingCharacters(in: .whitespaces)
        if span == "*" { return (nil, nil, total) }
        let bounds = span.split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), first <= last else { return nil }
        return (first, last, total)
    }

    /// Whether the body of this 206 response is whole after `count` bytes (its `Content-Range` is that
    /// long). A transfer that has what it wants lets such a body end by itself rather than stopping it,
    /// so that the connection is kept for the next request; anything else (a 200 sent for a range, a
    /// body longer than wanted) must be stopped.
    public func bodyIsWhole(after count: UInt64) -> Bool {
        guard status == 206, let range = contentRange, let first = range.first, let last = range.last else { return false }
        return count >= last - first + 1
    }

    /// "404 Not Found", for messages.
    public var statusDescription: String {
        let reason = HTTPResponseHead.reasons[status].map { " " + $0 } ?? ""
        return "\(status)\(reason)"
    }

    static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 410: "Gone", 416: "Range Not Satisfiable", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}
