// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// How the store knows a book again: its identifier (RWPM `identifier`, the EPUB's unique identifier),
/// else a hash of its manifest, so a moved or renamed file still resumes.
public enum BookIdentity {
    public static func key(for publication: Publication) -> String {
        if let identifier = publication.metadata.identifier?.trimmingCharacters(in: .whitespacesAndNewlines), !identifier.isEmpty {
            return identifier
        }
        return "raudio:manifest:" + fnv1a64(publication.manifest.json.serialized())
    }

    /// FNV-1a, 64 bits, in hex: stable across runs and machines (Swift's `Hasher` is seeded per process).
    static func fnv1a64(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
