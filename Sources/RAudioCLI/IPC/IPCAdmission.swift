// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOHTTP1
import RAudioPlayer
import Synchronization

/// Who may be answered and who may open a WebSocket: the `Host`, `Origin`, `Sec-Fetch-Site` and token
/// checks, made on every HTTP request (the upgrade requests included).
///
/// Read on the server's event loop; the port is set once the listening socket is bound.
final class IPCAdmission: Sendable {
    /// `--ipc-token`: the client must give it as `?token=` or `Authorization: Bearer`.
    let token: String?
    /// Whether the listener is on loopback: its requests must then name it by a loopback `Host`
    /// (another name is DNS rebinding). A listener on another address (`--ipc-allow-remote`) is
    /// reached by whatever name the network gives it, and relies on its token.
    let requiresLoopbackHost: Bool
    private let boundPort = Mutex(0)

    init(token: String?, requiresLoopbackHost: Bool = true) {
        self.token = token
        self.requiresLoopbackHost = requiresLoopbackHost
    }

    var port: Int {
        get { boundPort.withLock { $0 } }
        set { boundPort.withLock { $0 = newValue } }
    }

    /// nil when `head` may upgrade; else the status to refuse it with (403 for another site's page
    /// or a foreign `Host`, 401 for a missing or wrong token).
    func refusal(of head: HTTPRequestHead) -> HTTPResponseStatus? {
        if isCrossSite(head) { return .forbidden }
        if requiresLoopbackHost && !isServedHost(head) { return .forbidden }
        if let token, !Self.tokensMatch(presentedToken(in: head), token) { return .unauthorized }
        return nil
    }

    /// Whether `presented` is `token`, in a time that depends on their lengths only, not on where they
    /// first differ: every byte of the longer is looked at, the differences gathered without a branch, so
    /// the time of a 401 tells nothing of how much of the token a guess had right.
    static func tokensMatch(_ presented: String?, _ token: String) -> Bool {
        guard let presented else { return false }
        let given = Array(presented.utf8), expected = Array(token.utf8)
        var difference = UInt(bitPattern: given.count ^ expected.count)
        for index in 0..<max(given.count, expected.count) {
            let left = index < given.count ? given[index] : 0
            let right = index < expected.count ? expected[index] : 0
            difference |= UInt(left ^ right)
        }
        return difference == 0
    }

    /// Whether another site's page made the request: a `Sec-Fetch-Site` other than `same-origin` or
    /// `none` (a browser says `cross-site` or `same-site`), or an `Origin` that is not this server
    /// (`null` included). A request naming either header twice is refused too: which one to believe is
    /// the attacker's choice.
    func isCrossSite(_ head: HTTPRequestHead) -> Bool {
        let fetchSite = head.headers["Sec-Fetch-Site"]
        if fetchSite.count > 1 { return true }
        if let site = fetchSite.first?.lowercased(), site != "same-origin", site != "none" { return true }
        let origins = head.headers["Origin"]
        if origins.count > 1 { return true }
        if let origin = origins.first, !loopbackOrigins.contains(origin.lowercased()) { return true }
        return false
    }

    /// Whether the request names this server by a loopback name (`Host`, with this port or none): a
    /// page reached through another name (DNS rebinding) is not served.
    func isServedHost(_ head: HTTPRequestHead) -> Bool {
        let hosts = head.headers["Host"]
        guard hosts.count == 1, let host = hosts.first?.lowercased() else { return false }
        let port = port
        return ["127.0.0.1", "localhost", "[::1]"].contains { name in host == name || host == "\(name):\(port)" }
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
