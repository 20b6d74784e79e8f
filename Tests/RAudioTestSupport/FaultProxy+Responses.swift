// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The faults that rewrite the server's answer: a `Content-Length` that lies, and an endless body.
extension FaultProxy {
    /// Forwards `head` upstream and relays the answer with its `Content-Length` changed by `difference`.
    func relayLyingAboutLength(_ head: RequestHead, by difference: Int, to client: Int32) {
        guard let upstream = openUpstream(head) else { return }
        defer { close(upstream) }
        guard let (responseHead, rest) = Self.readResponseHead(from: upstream) else { return }
        let lines = responseHead.components(separatedBy: "\r\n").map { line -> String in
            guard line.lowercased().hasPrefix("content-length:"),
                  let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return line }
            return "Content-Length: \(max(0, length + difference))"
        }
        guard Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8).withUnsafeBytes({ LoopbackPort.send($0, to: client) }),
              rest.withUnsafeBytes({ LoopbackPort.send($0, to: client) }) else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0,
                  buffer.withUnsafeBytes({ LoopbackPort.send(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: client) }) else { return }
        }
    }

    /// Fetches the whole file once, then answers 200 with it repeated until the client hangs up.
    func serveEndlessly(_ head: RequestHead, contentLength: Int?, to client: Int32) {
        var head = head
        head.headers.removeAll { $0.name.lowercased() == "range" }
        guard let upstream = openUpstream(head) else { return }
        guard let (_, first) = Self.readResponseHead(from: upstream) else {
            close(upstream)
            return
        }
        var file = first
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            file.append(contentsOf: buffer[0..<count])
        }
        close(upstream)
        guard !file.isEmpty else { return }
        let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            + (contentLength.map { "Content-Length: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n"
        guard Array(answer.utf8).withUnsafeBytes({ LoopbackPort.send($0, to: client) }) else { return }
        while file.withUnsafeBytes({ LoopbackPort.send($0, to: client) }) {
            endlessCount.withLock { $0 += file.count }
        }
    }

    /// A connection to the server with `head` sent (its `Connection` header made `close`).
    private func openUpstream(_ head: RequestHead) -> Int32? {
        var head = head
        head.headers.removeAll { $0.name.lowercased() == "connection" }
        head.headers.append(("Connection", "close"))
        guard let upstream = LoopbackPort.connect(port: upstreamPort) else { return nil }
        guard Array(head.serialized.utf8).withUnsafeBytes({ LoopbackPort.send($0, to: upstream) }) else {
            close(upstream)
            return nil
        }
        return upstream
    }

    /// Reads a response head up to its blank line; returns it (without the blank line) and the body
    /// bytes read past it.
    static func readResponseHead(from descriptor: Int32) -> (String, [UInt8])? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < 1024 * 1024 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes.append(contentsOf: buffer[0..<count])
            if let end = Self.blankLine(in: bytes) {
                return (String(decoding: bytes[0..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
            }
        }
        return nil
    }

    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
