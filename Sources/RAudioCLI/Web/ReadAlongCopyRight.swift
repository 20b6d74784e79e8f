// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioState
#if canImport(ReadiumLCP)
import ReadiumLCP
#endif
import ReadiumShared
import ReadiumStreamer

/// The `copy` right of an LCP licence on the read-along page, honoured as Readium's navigators honour it
/// (`UserRights.copy(text:)` behind their `EditingAction.copy`): the page shows the book and lets its text be
/// selected, but a copy out of it is intercepted by the page and asked for here (`POST /raudio/copy`). It is
/// allowed whole when its characters fit in what is left of `rights.copy` and then counted, refused whole (nothing
/// counted, nothing copied) when they do not. The count is the one `raudio text` spends (`lcp_copy` in the
/// listening state, by licence id, one transaction), so the page and `raudio text` share one right.
///
/// Characters are Swift `Character`s (grapheme clusters), as `raudio text` counts them. Without a listening state
/// (`RAUDIO_NO_STATE=1`, a folder that cannot be written) nothing can be counted, so every copy is refused, saying so.
final class ReadAlongCopyRight: Sendable {
    /// The answer to one copy, as the page receives it (JSON).
    struct Answer: Equatable {
        var allowed: Bool
        /// The characters the text holds.
        var characters: Int
        /// What is left of the right after this copy (nil: no store to count in).
        var remaining: Int?
        var limit: Int
        /// Why a copy was refused, to show the listener.
        var reason: String?

        var json: JSONValue {
            var object: JSONObject = [
                "allowed": .bool(allowed), "characters": .integer(Int64(characters)), "limit": .integer(Int64(limit)),
                "remaining": remaining.map { JSONValue.integer(Int64($0)) } ?? JSONValue.null,
            ]
            if let reason { object["reason"] = .string(reason) }
            return .object(object)
        }
    }

    let licenseID: String
    let limit: Int
    private let store: ListeningStateStore?

    init(licenseID: String, limit: Int, store: ListeningStateStore?) {
        (self.licenseID, self.limit, self.store) = (licenseID, limit, store)
    }

    /// The right of `publication` when an LCP licence limits copying it; nil when nothing does.
    static func make(for publication: Publication?, stateDirectory: String?,
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> ReadAlongCopyRight? {
        #if canImport(ReadiumLCP)
        guard let license = publication?.contentProtectionRights as? LCPLicense, let limit = license.rights.copy else { return nil }
        let store = environment["RAUDIO_NO_STATE"] == "1"
            ? nil : ListeningStateStore.open(directory: StateDirectory.resolve(option: stateDirectory, environment: environment)).store
        return ReadAlongCopyRight(licenseID: license.document.id, limit: limit, store: store)
        #else
        return nil
        #endif
    }

    /// What is left of the right now (nil: no store to count in).
    var remaining: Int? {
        guard let store, let copied = try? store.lcpCopiedCharacters(licenseID: licenseID) else { return nil }
        return max(0, limit - copied)
    }

    /// The right as the page asks for it before any copy (`GET /raudio/copy`).
    var state: JSONValue {
        let left: JSONValue = remaining.map { JSONValue.integer(Int64($0)) } ?? .null
        return .object(["limit": .integer(Int64(limit)), "remaining": left])
    }

    /// Counts `text` against the right: allowed (and counted) when it fits whole, else refused with nothing counted.
    func copy(_ text: String) -> Answer {
        let characters = text.count
        guard let store else {
            return Answer(allowed: false, characters: characters, remaining: nil, limit: limit,
                          reason: "this book's LCP licence allows copying \(limit) characters, which raudio counts in the listening state; there is none here (RAUDIO_NO_STATE or a folder that cannot be written)")
        }
        let fits = (try? store.spendLCPCopy(licenseID: licenseID, count: characters, limit: limit)) ?? false
        let left = remaining
        if fits { return Answer(allowed: true, characters: characters, remaining: left, limit: limit) }
        let reason = left == 0
            ? "this book's LCP licence allows copying \(limit) characters, and they have been copied"
            : "this book's LCP licence allows copying \(left.map(String.init) ?? "no") more characters (of \(limit)); the selection has \(characters)"
        return Answer(allowed: false, characters: characters, remaining: left, limit: limit, reason: reason)
    }
}
