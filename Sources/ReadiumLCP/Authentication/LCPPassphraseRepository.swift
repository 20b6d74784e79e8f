// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where hashed passphrases are kept between runs (raudio's state store): never a passphrase, only its SHA-256.
///
/// Looked up as Readium does: the hash stored for this licence id, then those of the same user at the same
/// provider, then all of them (a library's passphrase is usually one per reader).
public protocol LCPPassphraseRepository: Sendable {
    func passphrase(forLicenseID licenseID: String) -> LCPPassphraseHash?
    func passphrases(forUserID userID: String, provider: String) -> [LCPPassphraseHash]
    func allPassphrases() -> [LCPPassphraseHash]
    /// Remembers `hash` for the licence (and its user and provider).
    func addPassphrase(_ hash: LCPPassphraseHash, licenseID: String, provider: String, userID: String?)
}

extension LCPPassphraseRepository {
    /// The candidates in lookup order, without repeats.
    func candidates(for document: LicenseDocument) -> [LCPPassphraseHash] {
        var seen: Set<String> = []
        var ordered: [LCPPassphraseHash] = []
        var all = [passphrase(forLicenseID: document.id)].compactMap { $0 }
        if let userID = document.user.id { all += passphrases(forUserID: userID, provider: document.provider) }
        all += allPassphrases()
        for hash in all where seen.insert(hash).inserted { ordered.append(hash) }
        return ordered
    }
}
