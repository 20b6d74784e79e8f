// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a redirect may lead: anywhere over `http`/`https` (as browsers follow them), except to a loopback
/// address (`localhost`, `127.0.0.0/8`, `::1`, `0.0.0.0`) other than the one asked for.
///
/// A remote page, manifest or track is fetched from the URL the listener gave or the book names; a server
/// there that redirects to `http://127.0.0.1:OTHER/` would make raudio read aloud (or play, or show on the
/// read-along page) the answer of another service of the listener's own machine. A redirect within the
/// loopback service asked for (same port) is followed. The rule looks at the URL's host as written: a
/// name that resolves to a loopback address is not recognized.
public enum RedirectRule {
    /// Why the answer of `answered` (the URL after redirects) must not be used for a request of `asked`,
    /// or nil when it may.
    public static func refusal(asked: String, answered: String) -> String? {
        guard answered != asked, let target = URLComponents(string: answered), let targetHost = target.host,
              isLoopback(host: targetHost) else { return nil }
        if let source = URLComponents(string: asked), let sourceHost = source.host, isLoopback(host: sourceHost),
           port(of: source) == port(of: target) {
            return nil
        }
        return "redirects to \(answered), a service of this machine other than the one asked for: not followed (a redirect may not lead to a loopback address from elsewhere)"
    }

    /// Whether `host` (as a URL writes it) names this machine.
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "0.0.0.0" || name == "::" { return true }
        if name.hasPrefix("::ffff:") { name = String(name.dropFirst("::ffff:".count)) }
        var address = in_addr()
        // inet_aton also reads the short and numeric forms a URL may use (127.1, 2130706433).
        guard inet_aton(name, &address) != 0 else { return false }
        let value = UInt32(bigEndian: address.s_addr)
        return value >> 24 == 127 || value == 0
    }

    private static func port(of url: URLComponents) -> Int {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
