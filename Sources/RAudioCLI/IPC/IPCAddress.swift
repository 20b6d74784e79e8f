// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import RAudioPlayer

/// `--ipc`: where the IPC server listens, a unix socket or a WebSocket address.
enum IPCAddress: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    /// `unix:PATH`: JSON lines both ways, as mpv's `--input-ipc-server`.
    case unix(path: String)
    /// `ws://HOST:PORT`: RFC 6455 text frames, one event or command per frame. Port 0 picks a free port.
    case webSocket(host: String, port: Int)

    init?(argument: String) {
        if argument.hasPrefix("unix:") {
            let path = String(argument.dropFirst(5))
            guard !path.isEmpty else { return nil }
            self = .unix(path: path)
            return
        }
        guard argument.lowercased().hasPrefix("ws://") else { return nil }
        var rest = Substring(argument.dropFirst(5))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { return nil }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { return nil }
        self = .webSocket(host: String(host), port: port)
    }

    static var allValueStrings: [String] { ["unix:PATH", "ws://127.0.0.1:PORT"] }

    /// Whether only this machine can connect: a unix socket, or a WebSocket on a loopback address.
    var isLoopback: Bool {
        switch self {
        case .unix: true
        case .webSocket(let host, _): ["127.0.0.1", "::1", "localhost"].contains(host.lowercased())
        }
    }

    var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .webSocket(let host, let port): host.contains(":") ? "ws://[\(host)]:\(port)" : "ws://\(host):\(port)"
        }
    }
}
