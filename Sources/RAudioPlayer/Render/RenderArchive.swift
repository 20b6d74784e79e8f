// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumStreamer
import ZIPFoundation

/// The ZIP files a render writes besides the EPUB (a Readium audiobook, a part file): written under a temporary
/// name beside `path` and renamed when whole, every entry at one fixed time (1980-01-01, the same bytes in every
/// time zone: `ZIPEntryWriter.dosDate`) with fixed permissions, so that the same content gives the same bytes.
enum RenderArchive {
    static let entryDate = ZIPEntryWriter.dosDate(Date(timeIntervalSince1970: 315_532_800))

    /// Makes the archive, lets `fill` add its entries, renames it to `path`. Throws `AudioSinkError`:
    /// `.cannotCreate`, or `.writeFailed` (what `fill` throws that is not an `AudioSinkError` already, a rename).
    static func write(to path: String, _ fill: (Archive) throws -> Void) throws(AudioSinkError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).part")
        unlink(temporary.path)
        do {
            let archive: Archive
            do {
                archive = try Archive(url: temporary, accessMode: .create)
            } catch {
                throw AudioSinkError(.cannotCreate, subject: path, message: "cannot write beside it (\(temporary.path)): \(error)", cause: error)
            }
            try fill(archive)
        } catch let error as AudioSinkError {
            unlink(temporary.path)
            throw error
        } catch {
            unlink(temporary.path)
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot write \(temporary.path): \(error)", cause: error)
        }
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot rename \(temporary.path) to it: \(reason)", underlyingStatus: errno)
        }
    }

    /// Adds `data` as the entry `name`, deflated or stored.
    static func add(_ data: Data, as name: String, compressed: Bool, to archive: Archive) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: entryDate, permissions: 0o644,
                             compressionMethod: compressed ? .deflate : .none) { position, count in
            data.subdata(in: Int(position)..<Int(position) + count)
        }
    }
}
