// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOHTTP1
import Synchronization

/// Who may open a WebSocket: the `Origin` and token checks, made on the HTTP upgrade request.
///
/// Read on the server's event loop; the port is set once the listening socket is bound.
final class IPCAdmission: Sendable {
    /// `--ipc-token`: the client must give it as `?token=` or `Authorization: Bearer`.
    let token: String?
    private let boundPort = Mutex(0)

    init(token: String?) {
        self.token = token
    }

    var port: Int {
        get { boundPort.withLock { $0 } }
        set { boundPort.withLock { $0 = newValue } }
    }

    /// nil when `head` may upgrade; else the status to refuse it with (403 for another page's origin,
    /// 401 for a missing or wrong token).
    func refusal(of head: HTTPRequestHead) -> HTTPResponseStatus? {
        if let origin = head.headers.first(name: "Origin") {
            if !loopbackOrigins.contains(origin.lowercased()) { return .forbidden }
        }
        if let token, presentedToken(in: head) != token { return .unauthorized }
        return nil
    }

    /// Whether the request names this server by a loopback name (`Host`): a page reached through
    /// another name (DNS rebinding) is not served.
    func isServedHost(_ head: HTTPRequestHead) -> Bool {
        guard let host = head.headers.first(name: "Host")?.lowercased() else { return false }
        return loopbackOrigins.contains("http://" + host)
    }

    private var loopbackOrigins: [String] {
        let port = port
        return ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"]
    }

    private func presentedToken(in head: HTTPRequestHead) -> String? {
        if let authorization = head.headers.first(name: "Authorization"), authorization.lowercased().hasPrefix("bearer ") {
            return String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            return String(pair.dropFirst(6)).removingPercentEncoding
        }
        return nil
    }
}
