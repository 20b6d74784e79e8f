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
        FNV1a64(text).hex
    }
}
