// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import Foundation
import RAudioState
import ReadiumLCP
import ReadiumShared
import ReadiumStreamer

/// The network part of LCP in a raudio process: raudio's HTTP client, `RAUDIO_LCP_OFFLINE`, this device's id and
/// its registrations in the listening state, the CRL cached beside it, and the remote publication of a `.lcpl`
/// streamed with range requests.
enum LCPNetworkSetup {
    static var policy: LCPNetworkPolicy { .fromEnvironment() }

    /// The status service, with this device's id from the state store in `directory` (a random one for this
    /// process when there is no store).
    static func statusService(stateDirectory directory: URL?) -> LCPStatusService {
        let directory = directory ?? StateDirectory.resolve(option: nil)
        let store = ProcessInfo.processInfo.environment["RAUDIO_NO_STATE"] == "1" ? nil : ListeningStateStore.open(directory: directory).store
        let id = (try? store?.lcpDeviceID()) ?? nil
        return LCPStatusService(client: RemoteAccessSetup.client, policy: policy, device: LCPDevice(id: id ?? UUID().uuidString.lowercased()),
                                registry: store.map(StoreDeviceRegistry.init) ?? LCPMemoryDeviceRegistry())
    }

    /// The status checker `LCPService` runs when a book opens: its warnings go through the remote warnings relay,
    /// which makes them `warning` events of `play` and `speak` (code `lcp-status-offline`, `lcp-license-updated`, ...;
    /// `href` the licence checked) and lines on stderr everywhere else.
    /// Made when a licence is checked, not when a book opens: a book without LCP opens no store for it.
    static func statusChecker(stateDirectory: URL?) -> some LCPStatusChecking {
        LazyStatusChecker(stateDirectory: stateDirectory)
    }

    struct LazyStatusChecker: LCPStatusChecking {
        let stateDirectory: URL?

        func check(_ document: LicenseDocument, source: String) throws(LCPError) -> (status: LCPStatusSummary, updatedDocument: LicenseDocument?) {
            let checker = LCPNetworkStatusChecker(service: LCPNetworkSetup.statusService(stateDirectory: stateDirectory)) { warning in
                RemoteAccessSetup.warnings.deliver(RemoteWarning(code: warning.code.rawValue, url: warning.source, message: warning.message))
            }
            return try checker.check(document, source: source)
        }
    }

    /// The CRL as PEM, from its cache in the state directory (refreshed in the background when stale).
    static func currentCRL(stateDirectory: URL?) -> String {
        let directory = stateDirectory ?? StateDirectory.resolve(option: nil)
        return LCPCRLService(client: RemoteAccessSetup.client, policy: policy, cacheFile: directory.appendingPathComponent("lcp-crl.pem")).currentCRL()
    }

    /// The publication of a `.lcpl` that is not on this machine, read in place with range requests (a remote ZIP
    /// package); nil offline or for a link that is not http(s).
    static let remotePublication: @Sendable (LicenseDocument.Link, URL) throws(OpeningError) -> (any Container)? = { link, _ throws(OpeningError) in
        guard LCPNetworkPolicy.fromEnvironment().fetchesAllowed, Href.isRemote(link.href), let url = URL(string: link.href) else { return nil }
        do throws(ResourceError) {
            return try ZIPContainer(remote: url, access: RemoteAccessSetup.access)
        } catch {
            throw OpeningError(error)
        }
    }
}

/// The licences this device registered for, in the listening state.
struct StoreDeviceRegistry: LCPDeviceRegistry {
    let store: ListeningStateStore

    func isRegistered(licenseID: String) -> Bool { (try? store.isLCPDeviceRegistered(licenseID: licenseID)) ?? false }
    func markRegistered(licenseID: String) { try? store.markLCPDeviceRegistered(licenseID: licenseID) }
}
#endif
