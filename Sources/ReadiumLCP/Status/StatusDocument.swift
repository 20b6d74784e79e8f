// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A licence status document (LSD 1.0): the loan's current status, when it and its licence last changed, and
/// the links to act on it (`license`, `register`, `renew`, `return`). Readium's `StatusDocument`.
public struct StatusDocument: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable, CaseIterable {
        /// Issued, not yet used on any device.
        case ready
        /// Used, a device registered (or no registration asked).
        case active
        /// Invalidated by its provider.
        case revoked
        /// Given back by its user.
        case returned
        /// Invalidated before it was ever used.
        case cancelled
        /// Out of its loan period.
        case expired
    }

    /// One event of the loan's history (`register`, `renew`, `return`, `revoke`, `cancel`).
    public struct Event: Sendable, Equatable {
        public var type: String
        public var name: String?
        public var id: String?
        public var date: Date?
    }

    /// The licence id.
    public var id: String
    public var status: Status
    /// A message for people, in the user's language.
    public var message: String?
    /// When the licence itself last changed: newer than the licence's `updated` means a newer licence waits.
    public var licenseUpdated: Date
    /// When the status last changed (the date of a revocation, a return, a cancellation).
    public var statusUpdated: Date
    public var links: [LicenseDocument.Link]
    /// The latest end a renewal may ask for (`potential_rights.end`).
    public var potentialRightsEnd: Date?
    public var events: [Event]

    /// The first link with `rel`.
    public func link(_ rel: String) -> LicenseDocument.Link? { links.first { $0.rels.contains(rel) } }

    /// The devices that registered for the licence (`register` events), for a revocation's message.
    public var registeredDevicesCount: Int { events.count { $0.type == "register" } }

    /// Parses a status document; the error names `source` (its URL).
    public init(data: Data, source: String) throws(LCPNetworkError) {
        guard let object = try? JSONSerialization.jsonObject(with: data), let json = object as? [String: Any] else {
            throw LCPNetworkError(.lcpLicenseInvalid, subject: source, message: "the status document is not a JSON object")
        }
        func fail(_ message: String) -> LCPNetworkError {
            LCPNetworkError(.lcpLicenseInvalid, subject: source, message: "the status document \(message)")
        }
        guard let id = json["id"] as? String else { throw fail("has no id") }
        guard let word = json["status"] as? String else { throw fail("has no status") }
        guard let status = Status(rawValue: word) else { throw fail("has an unknown status \"\(word)\"") }
        guard let updated = json["updated"] as? [String: Any], let license = (updated["license"] as? String).flatMap(LCPDate.parse),
              let statusDate = (updated["status"] as? String).flatMap(LCPDate.parse)
        else { throw fail("has no dates updated.license and updated.status") }
        var links: [LicenseDocument.Link] = []
        for entry in json["links"] as? [[String: Any]] ?? [] {
            guard let linkData = try? JSONSerialization.data(withJSONObject: entry),
                  let link = try? JSONDecoder().decode(LicenseDocument.Link.self, from: linkData)
            else { throw fail("has a link without href") }
            links.append(link)
        }
        self.id = id
        self.status = status
        self.message = json["message"] as? String
        self.licenseUpdated = license
        self.statusUpdated = statusDate
        self.links = links
        self.potentialRightsEnd = ((json["potential_rights"] as? [String: Any])?["end"] as? String).flatMap(LCPDate.parse)
        self.events = (json["events"] as? [[String: Any]] ?? []).compactMap { event in
            guard let type = event["type"] as? String else { return nil }
            return Event(type: type, name: event["name"] as? String, id: event["id"] as? String,
                         date: (event["timestamp"] as? String).flatMap(LCPDate.parse))
        }
    }
}
