// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioState
#if canImport(ReadiumLCP)
import ReadiumLCP
#endif
import ReadiumShared
import ReadiumStreamer

/// The `copy` right of an LCP licence where raudio hands text out (`raudio text`): the characters given out are
/// counted down against `rights.copy` in the listening state, across runs and processes, and the text stops with
/// `lcp-copy-spent` (65) when the next utterance would go past it.
///
/// Characters are reserved as utterances are gathered (`take`) and counted in the store when they are written
/// (`commit`), in one transaction, so that two processes cannot both spend the last ones.
final class LCPCopyBudget {
    let licenseID: String
    let limit: Int
    private let store: ListeningStateStore
    private let path: String
    private var remaining: Int
    private var reserved = 0

    private init(licenseID: String, limit: Int, store: ListeningStateStore, path: String, copied: Int) {
        (self.licenseID, self.limit, self.store, self.path) = (licenseID, limit, store, path)
        remaining = max(0, limit - copied)
    }

    /// The budget of `publication` when an LCP licence limits copying it; nil when nothing does. Throws when it is
    /// spent already, or when it cannot be counted (no listening state: `RAUDIO_NO_STATE`, a folder that cannot be written).
    static func make(for publication: Publication, path: String) throws(CommandFailure) -> LCPCopyBudget? {
        #if canImport(ReadiumLCP)
        guard let license = publication.contentProtectionRights as? LCPLicense, let limit = license.rights.copy else { return nil }
        let store = ProcessInfo.processInfo.environment["RAUDIO_NO_STATE"] == "1"
            ? nil : ListeningStateStore.open(directory: StateDirectory.resolve(option: nil)).store
        guard let store else {
            throw CommandFailure(.badData, code: RAudioErrorCode.lcpCopySpent.rawValue,
                                 message: "\(path): its LCP licence allows copying \(limit) characters, which raudio counts in the listening state; it cannot be used here (RAUDIO_NO_STATE or a folder that cannot be written)")
        }
        let copied = (try? store.lcpCopiedCharacters(licenseID: license.document.id)) ?? limit
        let budget = LCPCopyBudget(licenseID: license.document.id, limit: limit, store: store, path: path, copied: copied)
        guard budget.remaining > 0 else { throw budget.spent() }
        return budget
        #else
        return nil
        #endif
    }

    /// Reserves `count` characters; false when they do not fit in what is left.
    func take(_ count: Int) -> Bool {
        guard reserved + count <= remaining else { return false }
        reserved += count
        return true
    }

    /// Counts the reserved characters in the store before they are written out.
    func commit() throws(CommandFailure) {
        guard reserved > 0 else { return }
        let fits = (try? store.spendLCPCopy(licenseID: licenseID, count: reserved, limit: limit)) ?? false
        guard fits else { throw spent() }
        remaining -= reserved
        reserved = 0
    }

    func spent() -> CommandFailure {
        CommandFailure(.badData, code: RAudioErrorCode.lcpCopySpent.rawValue,
                       message: "\(path): the LCP licence's copy right is spent: \(limit) characters may be copied out of it, and raudio text has handed them out")
    }
}
