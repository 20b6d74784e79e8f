// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What Readium LCP's network part remembers: this device's id (sent to the `register`, `renew` and `return`
/// links), the licences it registered for (registration happens once per licence), and how many characters
/// of each licence's `copy` right were handed out (`raudio text`, the read-along page's text).
extension ListeningStateStore {
    /// This device's LCP id: a random UUID made on first use and kept.
    public func lcpDeviceID() throws -> String {
        try database.write { db in
            if let id = try db.column("SELECT value FROM lcp_setting WHERE name = 'deviceID'", as: String.self).first { return id }
            let id = UUID().uuidString.lowercased()
            try db.execute("INSERT INTO lcp_setting (name, value) VALUES ('deviceID', ?)", [id])
            return id
        }
    }

    public func isLCPDeviceRegistered(licenseID: String) throws -> Bool {
        try database.read { db in try !db.column("SELECT 1 FROM lcp_registration WHERE licenseID = ?", [licenseID], as: Int64.self).isEmpty }
    }

    public func markLCPDeviceRegistered(licenseID: String, at time: Double = Date().timeIntervalSince1970) throws {
        try database.write { db in
            try db.execute("INSERT OR REPLACE INTO lcp_registration (licenseID, registered) VALUES (?, ?)", [licenseID, time])
        }
    }

    /// Characters of `licenseID` handed out so far.
    public func lcpCopiedCharacters(licenseID: String) throws -> Int {
        try database.read { db in
            Int(try db.column("SELECT copied FROM lcp_copy WHERE licenseID = ?", [licenseID], as: Int64.self).first ?? 0)
        }
    }

    /// Counts `count` more characters against `limit` (the licence's `rights.copy`), in one transaction so that
    /// two processes cannot both spend the last ones: true if they fit (and are counted), false if not (nothing
    /// counted).
    public func spendLCPCopy(licenseID: String, count: Int, limit: Int) throws -> Bool {
        try database.write { db in
            let copied = Int(try db.column("SELECT copied FROM lcp_copy WHERE licenseID = ?", [licenseID], as: Int64.self).first ?? 0)
            guard count >= 0, copied + count <= limit else { return false }
            try db.execute("INSERT OR REPLACE INTO lcp_copy (licenseID, copied) VALUES (?, ?)", [licenseID, Int64(copied + count)])
            return true
        }
    }
}
