// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A tiny HTTP/1.1 server of the tests' own on 127.0.0.1 that answers what the test scripted, per method
/// and path (query string ignored), and records every request: the LCP status document, register, renew
/// and return links, a licence, a publication. One connection per request (`Connection: close`); paths
/// nothing was scripted for answer 404. `stop()` (also run by deinit) closes its socket.
public final class ScriptedHTTPServer: @unchecked Sendable {
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: Data
        /// Seconds to wait before answering (a slow server).
        public var delay: TimeInterval
        /// The `Authorization` header the answer needs; any other (or none) gets `unauthorized` (a catalog's sign-in).
        public var requiredAuthorization: String?
        /// What a request without the required authorization gets: 401 and an OPDS authentication document, by default.
        public var unauthorized: Data
        /// The `ETag` sent with the answer; a request whose `If-None-Match` has it gets `304 Not Modified`.
        public var etag: String?
        /// More response headers (`Location` for a redirect).
        public var extraHeaders: [String: String] = [:]

        public init(
            status: Int = 200, contentType: String = "application/json", body: Data, delay: TimeInterval = 0,
            requiredAuthorization: String? = nil, unauthorized: Data = Data(), etag: String? = nil
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delay = delay
            self.requiredAuthorization = requiredAuthorization
            self.unauthorized = unauthorized
            self.etag = etag
        }

        public init(
            status: Int = 200, contentType: String = "application/json", _ text: String, delay: TimeInterval = 0,
            requiredAuthorization: String? = nil, unauthorized: String = "", etag: String? = nil
        ) {
            self.init(status: status, contentType: contentType, body: Data(text.utf8), delay: delay,
                      requiredAuthorization: requiredAuthorization, unauthorized: Data(unauthorized.utf8), etag: etag)
        }
    }

    /// A request that arrived: its method, path with query, and `Range` header (and the few others tests look at).
    public struct Request: Sendable, Equatable {
        public var method: String
        public var target: String
        public var range: String?
        /// `Authorization`, `If-None-Match`, `If-Modified-Since` and `Accept`, by lower-cased name, when sent.
        public var headers: [String: String] = [:]

        /// The target without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The value of a query parameter (percent-decoded), or nil.
        public func query(_ name: String) -> String? {
            URLComponents(string: "http://h" + target)?.queryItems?.first { $0.name == name }?.value
        }
    }

    public let port: UInt16
    private let listener: Int32
    private let answers = Locked<[String: Answer]>([:])
    private let log = Locked<[Request]>([])
    private let stopped = Locked(false)

    public init() throws {
        (listener, port) = try LoopbackPort.listen(port: 0)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "scripted-http"
        thread.start()
    }

    deinit {
        stop()
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Answers `method` requests for `/path` with `answer` from now on.
    public func answer(_ method: String = "GET", _ path: String, with answer: Answer) {
        answers.withLock { $0["\(method) /\(path)"] = answer }
    }

    /// The requests seen so far, in order of arrival.
    public var requests: [Request] { log.withLock { $0 } }

    public func stop() {
        let already = stopped.withLock { value in
            defer { value = true }
            return value
        }
        guard !already else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.name = "scripted-http-connection"
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let head = FaultProxy.readHead(from: client) else { return }
        let parts = head.requestLine.split(separator: " ")
        let method = parts.first.map(String.init) ?? "GET"
        let target = parts.dropFirst().first.map(String.init) ?? "/"
        let range = head.headers.first { $0.name.lowercased() == "range" }?.value
        var headers: [String: String] = [:]
        for header in head.headers where ["authorization", "if-none-match", "if-modified-since", "accept"].contains(header.name.lowercased()) {
            headers[header.name.lowercased()] = header.value
        }
        let request = Request(method: method, target: target, range: range, headers: headers)
        log.withLock { $0.append(request) }
        // A body (none expected) is read and dropped so that the client sees the answer, not a reset.
        if let length = head.headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }), length > 0 {
            var buffer = [UInt8](repeating: 0, count: min(length, 64 * 1024))
            var left = length
            while left > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress!, min($0.count, left), 0) }
                guard count > 0 else { break }
                left -= count
            }
        }
        let answer = answers.withLock { $0["\(method) \(request.path)"] } ?? Answer(status: 404, contentType: "text/plain", "not scripted")
        if answer.delay > 0 { Thread.sleep(forTimeInterval: answer.delay) }
        var body = answer.body
        var status = answer.status
        var extra = answer.etag.map { "ETag: \($0)\r\n" } ?? ""
        for (name, value) in answer.extraHeaders.sorted(by: { $0.key < $1.key }) { extra += "\(name): \(value)\r\n" }
        var contentType = answer.contentType
        if let required = answer.requiredAuthorization, headers["authorization"] != required {
            (status, body, contentType) = (401, answer.unauthorized, "application/opds-authentication+json")
        } else if let etag = answer.etag, headers["if-none-match"] == etag {
            (status, body) = (304, Data())
        }
        if method == "GET", status == 200, let range, let bounds = Self.byteRange(range, length: body.count) {
            extra = "Content-Range: bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(body.count)\r\n"
            body = body.subdata(in: bounds)
            status = 206
        }
        let headText = "HTTP/1.1 \(status) Scripted\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
            + "Accept-Ranges: bytes\r\n\(extra)Connection: close\r\n\r\n"
        Array(headText.utf8).withUnsafeBytes { _ = LoopbackPort.send($0, to: client) }
        if method != "HEAD" { body.withUnsafeBytes { _ = LoopbackPort.send($0, to: client) } }
    }

    /// `bytes=a-b` or `bytes=a-` within `length`.
    static func byteRange(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes=") else { return nil }
        let bounds = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first < length else { return nil }
        let last = bounds[1].isEmpty ? length - 1 : min(Int(bounds[1]) ?? length - 1, length - 1)
        return first <= last ? first..<(last + 1) : nil
    }
}
