// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import Foundation
import RAudioState
import ReadiumLCP
import ReadiumShared

/// LCP passphrase hashes in the listening-state store, opened on first use (a book without LCP never makes
/// the store). A store that cannot be opened or read means nothing is remembered, with a warning once.
final class StatePassphraseRepository: LCPPassphraseRepository, Sendable {
    private let directory: URL
    private let store = Locked<(opened: Bool, store: ListeningStateStore?)>((false, nil))

    init(directory: URL) {
        self.directory = directory
    }

    private func withStore<T>(_ fallback: T, _ body: (ListeningStateStore) throws -> T) -> T {
        let store = self.store.withLock { state -> ListeningStateStore? in
            if !state.opened {
                let (opened, warnings) = ListeningStateStore.open(directory: directory)
                for warning in warnings { StandardStreams.printError("raudio: warning: \(warning)") }
                state = (true, opened)
            }
            return state.store
        }
        guard let store else { return fallback }
        return (try? body(store)) ?? fallback
    }

    func passphrase(forLicenseID licenseID: String) -> LCPPassphraseHash? {
        withStore(nil) { try $0.lcpPassphrase(licenseID: licenseID) }
    }

    func passphrases(forUserID userID: String, provider: String) -> [LCPPassphraseHash] {
        withStore([]) { try $0.lcpPassphrases(userID: userID, provider: provider) }
    }

    func allPassphrases() -> [LCPPassphraseHash] {
        withStore([]) { try $0.allLCPPassphrases() }
    }

    func addPassphrase(_ hash: LCPPassphraseHash, licenseID: String, provider: String, userID: String?) {
        withStore(()) { try $0.addLCPPassphrase(hash: hash, licenseID: licenseID, provider: provider, userID: userID) }
    }
}
#endif
