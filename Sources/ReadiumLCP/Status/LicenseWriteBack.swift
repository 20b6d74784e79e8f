// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ZIPFoundation

/// Writes a licence into an LCP package: `META-INF/license.lcpl` in an EPUB, `license.lcpl` at the root of a
/// Readium package (`.lcpa`, `.lcpdf`, `.audiobook`). Used for a newer licence from the status document, a renewed
/// or returned loan, and `raudio lcp acquire`.
///
/// The package is never changed in place: a copy beside it (same folder, so the rename stays on one file system)
/// gets the new licence, is flushed, then renamed over the original. A failure anywhere removes the copy and
/// leaves the original as it was.
public enum LicenseWriteBack {
    /// Where the licence lives in `package`: the entry that already holds one, else by the package's kind (an EPUB
    /// has `META-INF/container.xml`).
    static func licensePath(in archive: Archive) -> String {
        if archive["META-INF/license.lcpl"] != nil || archive["META-INF/container.xml"] != nil { return "META-INF/license.lcpl" }
        return "license.lcpl"
    }

    /// Replaces (or adds) the licence of the ZIP package at `package` with `license`.
    public static func write(_ license: Data, into package: URL) throws(LCPNetworkError) {
        let folder = package.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(package.lastPathComponent).raudio-\(UUID().uuidString.prefix(8)).tmp")
        do {
            try FileManager.default.copyItem(at: package, to: temporary)
            try inject(license, intoArchiveAt: temporary)
            try flush(temporary)
            guard rename(temporary.path, package.path) == 0 else {
                throw LCPNetworkError(.lcpLicenseInvalid, subject: package.path, message: "cannot replace the package (errno \(errno))")
            }
        } catch let error as LCPNetworkError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw LCPNetworkError(.lcpLicenseInvalid, subject: package.path, message: "the licence could not be written into the package: \(error)", cause: error)
        }
    }

    /// Replaces (or adds) the licence entry of the ZIP file at `url`, in place (a file of the caller's own).
    public static func inject(_ license: Data, intoArchiveAt url: URL) throws {
        let archive = try Archive(url: url, accessMode: .update)
        let path = licensePath(in: archive)
        if let existing = archive[path] { try archive.remove(existing) }
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(license.count), compressionMethod: .deflate) { position, size in
            license.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    private static func flush(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fsync(descriptor)
    }
}
