// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension ListeningStateStore {
    /// The hashed passphrase stored for the LCP licence `licenseID`.
    public func lcpPassphrase(licenseID: String) throws -> String? {
        try database.read { db in
            try db.column("SELECT hash FROM lcp_passphrase WHERE licenseID = ?", [licenseID], as: String.self).first
        }
    }

    /// The hashed passphrases of licences of `userID` at `provider`, the latest first.
    public func lcpPassphrases(userID: String, provider: String) throws -> [String] {
        try database.read { db in
            try db.column(
                "SELECT DISTINCT hash FROM lcp_passphrase WHERE userID = ? AND provider = ? ORDER BY created DESC",
                [userID, provider], as: String.self)
        }
    }

    /// Every hashed passphrase stored, the latest first.
    public func allLCPPassphrases() throws -> [String] {
        try database.read { db in
            try db.column("SELECT hash FROM lcp_passphrase GROUP BY hash ORDER BY max(created) DESC", as: String.self)
        }
    }

    /// Remembers the hash of the passphrase that opened a licence. Only a SHA-256 in hexadecimal is accepted:
    /// anything else (a passphrase passed by mistake) is refused, never written.
    public func addLCPPassphrase(
        hash: String, licenseID: String, provider: String, userID: String?, at time: Double = Date().timeIntervalSince1970
    ) throws {
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw StateStoreError(.stateFailed, subject: file.path, message: "refused to store an LCP passphrase that is not a SHA-256 hash")
        }
        try database.write { db in
            try db.execute("""
                INSERT INTO lcp_passphrase (licenseID, hash, provider, userID, created) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(licenseID) DO UPDATE SET hash = excluded.hash, provider = excluded.provider,
                    userID = excluded.userID, created = excluded.created
                """, [licenseID, hash, provider, userID, time])
        }
    }
}
