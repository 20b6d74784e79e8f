// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared

/// A client of raudio's IPC server for tests, on plain POSIX sockets: a unix socket speaking JSON
/// lines, or TCP speaking HTTP and then WebSocket frames (masked, as a client must), written here
/// from RFC 6455 so the server is checked against the standard rather than against NIO's own client.
///
/// What arrives is read on a thread of its own once `startReading()` is called (a stalled client
/// never calls it). Writes use `MSG_NOSIGNAL`, so a server that dropped us is an error, not SIGPIPE.
final class IPCTestClient: @unchecked Sendable {
    let descriptor: Int32
    private let received = Locked<[String]>([])
    private let opcodes = Locked<[UInt8]>([])
    private let closes = Locked<[UInt16?]>([])
    private var isWebSocket = false
    /// Bytes read past the HTTP response (the first frames).
    private var leftover: [UInt8] = []
    private let readerDone = DispatchSemaphore(value: 0)
    private var isReading = false

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Connects to the unix socket at `path`.
    init(unixPath path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else { close(descriptor); throw Failure(description: "connect \(path): errno \(errno)") }
    }

    /// Connects to 127.0.0.1:`port`.
    init(tcpPort port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { close(descriptor); throw Failure(description: "connect 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        if isReading { _ = readerDone.wait(timeout: .now() + 5) }
        close(descriptor)
    }

    /// The JSON lines (or text frames) received so far.
    var messages: [String] { received.withLock { $0 } }
    /// The opcodes of the frames received so far (WebSocket).
    var frameOpcodes: [UInt8] { opcodes.withLock { $0 } }
    /// The status code of each close frame received (nil for one without a code).
    var closeCodes: [UInt16?] { closes.withLock { $0 } }

    /// Writes all of `bytes`; false once the server closed the connection.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0 { if errno == EINTR { continue }; return false }
            offset += count
        }
        return true
    }

    @discardableResult
    func sendLine(_ line: String) -> Bool { write(Array((line + "\n").utf8)) }

    /// Sends an HTTP upgrade request with `headers`; returns the response's status code. On 101 the
    /// connection speaks WebSocket from then on.
    func upgrade(path: String = "/", headers: [String: String] = [:]) throws -> Int {
        var request = "GET \(path) HTTP/1.1\r\n\(headers["Host"] == nil ? "Host: 127.0.0.1\r\n" : "")Upgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        guard write(Array(request.utf8)) else { throw Failure(description: "the request could not be sent") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while true {
            if let range = response.firstRange(of: end) {
                leftover = Array(response[range.upperBound...])
                response = Array(response[..<range.lowerBound])
                break
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "no HTTP response (\(String(decoding: response, as: UTF8.self)))") }
            response += buffer[0..<count]
        }
        let statusLine = String(decoding: response, as: UTF8.self).split(separator: "\r\n").first ?? ""
        guard let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(description: "bad status line \(statusLine)")
        }
        isWebSocket = code == 101
        return code
    }

    /// Sends `GET path` (with `host` as the Host header) and reads the whole answer (the server closes
    /// the connection): the status code, the headers (names lowercased) and the body.
    func get(_ path: String, host: String) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        guard write(Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)) else {
            throw Failure(description: "the request could not be sent")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw Failure(description: "the answer did not end (\(response.count) bytes)") }
            if count == 0 { break }
            response += buffer[0..<count]
        }
        guard let range = response.firstRange(of: Array("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP head") }
        let lines = String(decoding: response[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let code = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(description: "bad status line \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (code, headers, Array(response[range.upperBound...]))
    }

    /// Sends one masked frame.
    @discardableResult
    func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> Bool {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index % 4]) }
        return write(frame)
    }

    @discardableResult
    func sendText(_ text: String) -> Bool { sendFrame(opcode: 0x1, Array(text.utf8)) }

    /// Starts the thread that reads lines (unix) or frames (WebSocket) until the connection ends.
    func startReading() {
        isReading = true
        var timeout = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let descriptor = descriptor, received = received, opcodes = opcodes, closes = closes, isWebSocket = isWebSocket, done = readerDone
        let leftover = leftover
        Thread.detachNewThread {
            var pending = leftover
            var buffer = [UInt8](repeating: 0, count: 65536)
            reading: while true {
                if isWebSocket {
                    while let (opcode, payload, size) = Self.frame(in: pending) {
                        pending.removeFirst(size)
                        opcodes.withLock { $0.append(opcode) }
                        if opcode == 0x1 { received.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } }
                        if opcode == 0x8 {
                            closes.withLock { $0.append(payload.count >= 2 ? UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1]) : nil) }
                            break reading
                        }
                    }
                } else {
                    var lines: [String] = []
                    var start = 0
                    for index in pending.indices where pending[index] == 0x0A {
                        lines.append(String(decoding: pending[start..<index], as: UTF8.self))
                        start = index + 1
                    }
                    if start > 0 { pending.removeFirst(start) }
                    if !lines.isEmpty { received.withLock { $0 += lines } }
                }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
            }
            done.signal()
        }
    }

    /// A whole unmasked server frame at the start of `bytes`: its opcode, payload and size.
    private static func frame(in bytes: [UInt8]) -> (UInt8, ArraySlice<UInt8>, Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            header = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard bytes.count >= header + length else { return nil }
        return (bytes[0] & 0x0F, bytes[header..<(header + length)], header + length)
    }

    /// Waits until a received message satisfies `predicate`.
    func waitFor(timeout: TimeInterval = 10, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if messages.contains(where: predicate) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
