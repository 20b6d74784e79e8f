// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Whether an LCP licence's links (status document, register, renew, return, newer licence, CRL, publication)
/// may be fetched, and how long a status check may take.
///
/// `RAUDIO_LCP_OFFLINE=1` turns every such fetch off: playback then goes on with the licence as it is (a
/// warning says the status was not checked), and `raudio lcp renew`, `return` and `acquire` fail with
/// `lcp-status-unreachable`. The tests set it whenever they open a real licence, whose links name outside hosts.
public struct LCPNetworkPolicy: Sendable, Equatable {
    public static let offlineVariable = "RAUDIO_LCP_OFFLINE"

    public var fetchesAllowed: Bool
    /// Seconds a status check (and a registration, a newer licence) may take before playback goes on without it.
    public var statusTimeout: TimeInterval
    /// Seconds a renew or return may take.
    public var actionTimeout: TimeInterval

    public init(fetchesAllowed: Bool = true, statusTimeout: TimeInterval = 5, actionTimeout: TimeInterval = 30) {
        self.fetchesAllowed = fetchesAllowed
        self.statusTimeout = statusTimeout
        self.actionTimeout = actionTimeout
    }

    /// Fetches allowed unless `RAUDIO_LCP_OFFLINE` is set to something other than `0` or empty.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> LCPNetworkPolicy {
        let value = environment[offlineVariable] ?? ""
        return LCPNetworkPolicy(fetchesAllowed: value.isEmpty || value == "0")
    }
}

/// This device, as the `register`, `renew` and `return` links of a status document name it (`id`, `name`).
public struct LCPDevice: Sendable, Equatable {
    /// A random identifier made once and kept in the state store.
    public var id: String
    /// What the loan's history shows; raudio says "raudio" and not the host's name.
    public var name: String

    public init(id: String, name: String = "raudio") {
        self.id = id
        self.name = name
    }
}

/// Remembers the licences this device registered for, so that registration happens once per licence
/// (the state store implements it; `LCPMemoryDeviceRegistry` for tests and embedders without one).
public protocol LCPDeviceRegistry: Sendable {
    func isRegistered(licenseID: String) -> Bool
    func markRegistered(licenseID: String)
}

/// A registry in memory, for one process.
public final class LCPMemoryDeviceRegistry: LCPDeviceRegistry {
    private let registered = Locked<Set<String>>([])

    public init() {}

    public func isRegistered(licenseID: String) -> Bool { registered.withLock { $0.contains(licenseID) } }
    public func markRegistered(licenseID: String) { _ = registered.withLock { $0.insert(licenseID) } }
}
