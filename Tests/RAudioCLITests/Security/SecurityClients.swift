// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Plain-socket helpers of the security suites: an HTTP request with any headers, read whole or only
/// in part; a loopback listener that counts who connects to it (the target of a forged request).
enum SecurityHTTP {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Sends `request` (a whole HTTP request, `\r\n` line ends) to 127.0.0.1:`port` and reads the
    /// answer until the server closes, or only its first `bodyLimit` bytes of body.
    static func send(_ request: String, port: Int, bodyLimit: Int = .max) throws -> Answer {
        let client = try IPCTestClient(tcpPort: port)
        guard client.write(Array(request.utf8)) else { throw IPCTestClient.Failure(description: "the request could not be sent") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        while true {
            if headEnd == nil, let range = response.firstRange(of: Array("\r\n\r\n".utf8)) { headEnd = range.upperBound }
            if let headEnd, response.count - headEnd >= bodyLimit { break }
            let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw IPCTestClient.Failure(description: "the answer did not end (\(response.count) bytes, errno \(errno))") }
            if count == 0 { break }
            response += buffer[0..<count]
        }
        guard let range = response.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw IPCTestClient.Failure(description: "no HTTP head in \(response.count) bytes")
        }
        let lines = String(decoding: response[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let code = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw IPCTestClient.Failure(description: "bad status line \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: code, headers: headers, body: Array(response[range.upperBound...].prefix(bodyLimit)))
    }

    /// `GET path` with `Host: 127.0.0.1:port` and `headers` (each line `Name: value`).
    static func get(_ path: String, port: Int, headers: [String] = [], bodyLimit: Int = .max) throws -> Answer {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { request += header + "\r\n" }
        return try send(request + "\r\n", port: port, bodyLimit: bodyLimit)
    }
}

/// A TCP listener on 127.0.0.1 that answers every connection with a fixed secret and counts them:
/// what a forged request would make raudio fetch.
final class CountingListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let accepted = Locked(0)
    static let secret = "the listener's secret body"

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { close(listener); throw IPCTestClient.Failure(description: "cannot listen: errno \(errno)") }
        descriptor = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let descriptor = listener, accepted = accepted
        Thread.detachNewThread {
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 { if errno == EINTR { continue }; return }
                accepted.withLock { $0 += 1 }
                let body = Self.secret
                let answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                _ = Array(answer.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            }
        }
    }

    /// How many connections were made to it.
    var connections: Int { accepted.withLock { $0 } }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
