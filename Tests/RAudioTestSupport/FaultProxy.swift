// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A small HTTP proxy of the tests' own in front of a real server (`NginxServer`), which injects the
/// faults a remote publication must survive: error answers, connections dropped mid-body, stalls,
/// and `Range` headers dropped.
///
/// Every request gets a connection of its own (`Connection: close` both ways), so a fault hits one
/// request. Faults apply to requests whose path ends with a suffix, a given number of times. It runs
/// on threads of its own; `stop()` (also run by deinit) closes its socket.
public final class FaultProxy: @unchecked Sendable {
    public enum Fault: Sendable, Equatable {
        /// Answers this status with an empty body instead of forwarding.
        case status(Int)
        /// Forwards, then closes the connection after this many bytes of the response (head included).
        /// Counts as applied only when a response was that long and got cut.
        case dropAfter(bytes: Int)
        /// Waits this many seconds, then forwards.
        case stall(seconds: Double)
        /// Forwards without the `Range` header (the server then sends the whole file).
        case stripRange
        /// Forwards with the response's `Content-Length` off by this many bytes (positive: it promises
        /// more than the body holds; negative: less).
        case lieAboutLength(by: Int)
        /// Ignores `Range` and answers 200 with the whole file over and over until the client hangs up,
        /// announcing `contentLength` (none when nil).
        case endless(contentLength: Int?)
    }

    /// A request that reached the proxy: its path and `Range` header, and the fault it met.
    public struct Request: Sendable {
        public var path: String
        public var range: String?
        public var fault: Fault?
    }

    public let port: UInt16
    let upstreamPort: UInt16
    private let listener: Int32
    private let rules = Locked<[(suffix: String, rangeStart: Int?, fault: Fault, skipped: Int, remaining: Int)]>([])
    private let log = Locked<[Request]>([])
    private let stopped = Locked(false)

    /// Listens on a free port of 127.0.0.1 and forwards to 127.0.0.1:`upstreamPort`.
    public init(upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        (listener, port) = try LoopbackPort.listen(port: 0)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "fault-proxy"
        thread.start()
    }

    deinit {
        stop()
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Applies `fault` to `times` requests whose path ends with `pathSuffix` (and whose `Range` starts at
    /// byte `rangeStart`, when given), after letting the first `skipping` of them through (`skipping: 1`
    /// spares the request that learns a track's length).
    public func inject(_ fault: Fault, pathSuffix: String, rangeStart: Int? = nil, times: Int = 1, skipping: Int = 0) {
        rules.withLock { $0.append((pathSuffix, rangeStart, fault, skipping, times)) }
    }

    /// The requests seen so far, in order of arrival.
    public var requests: [Request] { log.withLock { $0 } }

    /// Body bytes sent by `endless` answers so far.
    public var endlessBytesSent: Int { endlessCount.withLock { $0 } }
    let endlessCount = Locked(0)

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
            thread.name = "fault-proxy-connection"
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard var head = Self.readHead(from: client) else { return }
        let path = head.requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let range = head.headers.first { $0.name.lowercased() == "range" }?.value
        let fault = takeFault(for: path, range: range)
        log.withLock { $0.append(Request(path: path, range: range, fault: fault)) }
        switch fault {
        case .status(let code):
            let answer = "HTTP/1.1 \(code) Injected Fault\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            Array(answer.utf8).withUnsafeBytes { _ = LoopbackPort.send($0, to: client) }
            return
        case .stall(let seconds):
            Thread.sleep(forTimeInterval: seconds)
        case .stripRange:
            head.headers.removeAll { $0.name.lowercased() == "range" }
        case .endless(let contentLength):
            return serveEndlessly(head, contentLength: contentLength, to: client)
        case .lieAboutLength(let difference):
            return relayLyingAboutLength(head, by: difference, to: client)
        case .dropAfter, nil:
            break
        }
        head.headers.removeAll { $0.name.lowercased() == "connection" }
        head.headers.append(("Connection", "close"))
        guard let upstream = LoopbackPort.connect(port: upstreamPort) else { return }
        defer { close(upstream) }
        Array(head.serialized.utf8).withUnsafeBytes { _ = LoopbackPort.send($0, to: upstream) }
        var limit = Int.max
        if case .dropAfter(let bytes) = fault { limit = bytes }
        var relayed = 0
        defer {
            if relayed >= limit { consume(fault!, for: path, range: range) }
        }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while relayed < limit {
            let count = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress!, min($0.count, limit - relayed), 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let sent = buffer.withUnsafeBytes { LoopbackPort.send(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: client) }
            guard sent else { return }
            relayed += count
        }
    }

    private func takeFault(for path: String, range: String?) -> Fault? {
        let start = range.flatMap { $0.hasPrefix("bytes=") ? Int($0.dropFirst(6).prefix { $0.isNumber }) : nil }
        return rules.withLock { rules in
            let index = rules.firstIndex { rule in
                path.hasSuffix(rule.suffix) && rule.remaining > 0 && (rule.rangeStart == nil || rule.rangeStart == start)
            }
            guard let index else { return nil }
            if rules[index].skipped > 0 {
                rules[index].skipped -= 1
                return nil
            }
            if case .dropAfter = rules[index].fault { return rules[index].fault }
            rules[index].remaining -= 1
            return rules[index].fault
        }
    }

    /// Counts a cut made by a `dropAfter` rule.
    private func consume(_ fault: Fault, for path: String, range: String?) {
        let start = range.flatMap { $0.hasPrefix("bytes=") ? Int($0.dropFirst(6).prefix { $0.isNumber }) : nil }
        rules.withLock { rules in
            let index = rules.firstIndex { rule in
                path.hasSuffix(rule.suffix) && rule.fault == fault && rule.remaining > 0 && (rule.rangeStart == nil || rule.rangeStart == start)
            }
            if let index { rules[index].remaining -= 1 }
        }
    }

    struct RequestHead {
        var requestLine: String
        var headers: [(name: String, value: String)]

        var serialized: String {
            ([requestLine] + headers.map { "\($0.name): \($0.value)" }).joined(separator: "\r\n") + "\r\n\r\n"
        }
    }

    /// Reads a request head up to its blank line.
    static func readHead(from descriptor: Int32) -> RequestHead? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 64 * 1024 {
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            bytes.append(byte)
            if bytes.count >= 4, bytes.suffix(4) == [13, 10, 13, 10] { break }
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return RequestHead(requestLine: first, headers: headers)
    }
}
