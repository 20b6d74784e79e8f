// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The certificate revocation list an `LCPClient` checks provider certificates against (`createContext(pemCrl:)`):
/// kept in a cache file, refreshed from EDRLab's CRL when it is older than a week and the network is allowed.
///
/// Never blocking: `currentCRL()` answers at once with what the cache holds (empty the first time) and, when it
/// is stale, refreshes it on a thread of its own with a short timeout, for the next opening. Offline
/// (`RAUDIO_LCP_OFFLINE`) nothing is fetched.
public final class LCPCRLService: Sendable {
    /// Readium's CRL address (the "Readium LCP Root CA" revocation list).
    public static let defaultURL = "http://crl.edrlab.telesec.de/rl/Readium_LCP_Root_CA.crl"
    static let maximumSize = 8 << 20

    private let client: (any HTTPClient)?
    private let policy: LCPNetworkPolicy
    private let cacheFile: URL
    private let url: String
    private let maximumAge: TimeInterval
    private let refreshing = Locked(false)

    public init(client: (any HTTPClient)?, policy: LCPNetworkPolicy = .fromEnvironment(), cacheFile: URL,
                url: String = LCPCRLService.defaultURL, maximumAge: TimeInterval = 7 * 24 * 3600) {
        self.client = client
        self.policy = policy
        self.cacheFile = cacheFile
        self.url = url
        self.maximumAge = maximumAge
    }

    /// The cached CRL as PEM ("" when there is none yet); starts a refresh in the background when it is stale.
    /// `refreshed` is called when that refresh ends (true if the cache was renewed), for tests.
    @discardableResult
    public func currentCRL(refreshed: (@Sendable (Bool) -> Void)? = nil) -> String {
        let cached = try? String(contentsOf: cacheFile, encoding: .utf8)
        let modified = (try? FileManager.default.attributesOfItem(atPath: cacheFile.path)[.modificationDate] as? Date) ?? .distantPast
        if (cached == nil || Date().timeIntervalSince(modified) > maximumAge), policy.fetchesAllowed, client != nil {
            let start = refreshing.withLock { busy in
                defer { busy = true }
                return !busy
            }
            if start {
                let thread = Thread { [self] in
                    let renewed = refresh()
                    refreshing.withLock { $0 = false }
                    refreshed?(renewed)
                }
                thread.name = "lcp-crl"
                thread.start()
            } else {
                refreshed?(false)
            }
        } else {
            refreshed?(false)
        }
        return cached ?? ""
    }

    /// Fetches the CRL now (bounded by the policy's status timeout) and caches it as PEM; false if it could not.
    public func refresh() -> Bool {
        guard let client, policy.fetchesAllowed else { return false }
        let deadline = Date().addingTimeInterval(policy.statusTimeout)
        var body = Data()
        guard let head = try? client.perform(HTTPRequest(url: url), shouldStop: { Date() > deadline }, receive: { _, chunk in
            guard body.count + chunk.count <= Self.maximumSize else { return false }
            body.append(contentsOf: chunk)
            return true
        }), head.isSuccess, !body.isEmpty, Date() <= deadline else { return false }
        let pem = Self.pem(fromCRL: body)
        do {
            try FileManager.default.createDirectory(at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(pem.utf8).write(to: cacheFile, options: .atomic)
            return true
        } catch {
            return false
        }
    }

    /// A CRL as PEM: kept as it is when it already is PEM, else DER wrapped in `X509 CRL` armour.
    static func pem(fromCRL data: Data) -> String {
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN X509 CRL-----") { return text }
        let base64 = data.base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN X509 CRL-----\n" + lines.joined(separator: "\n") + "\n-----END X509 CRL-----\n"
    }
}
