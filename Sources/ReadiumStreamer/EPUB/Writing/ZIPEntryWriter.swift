// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ZIPFoundation

/// Writes an OCF ZIP deterministically: entries in the given order (`mimetype` first, stored), one fixed time
/// for all, fixed permissions; audio and images stored, text deflated.
public enum ZIPEntryWriter {
    struct Entry {
        var path: String
        var data: Data
        var compressed: Bool
    }

    /// Whether an entry at `path` is worth deflating (not already compressed media).
    static func compresses(_ path: String) -> Bool {
        let stored: Set<String> = ["mp3", "m4a", "m4b", "mp4", "aac", "opus", "ogg", "oga", "webm", "jpg", "jpeg", "png", "gif", "webp", "woff", "woff2", "zip"]
        return !stored.contains((path.split(separator: ".").last.map(String.init) ?? "").lowercased())
    }

    /// The `Date` whose local calendar fields are `date`'s in UTC: ZIPFoundation writes DOS times in local
    /// time, and this keeps the bytes the same in every time zone. No earlier than 1980 (DOS time's start).
    public static func dosDate(_ date: Date) -> Date {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var fields = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: max(date, Date(timeIntervalSince1970: 315_532_800)))
        fields.timeZone = TimeZone.current
        var local = Calendar(identifier: .gregorian)
        local.timeZone = TimeZone.current
        return local.date(from: fields) ?? date
    }

    static func write(_ entries: [Entry], to url: URL, date: Date) throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        let archive = try Archive(url: url, accessMode: .create)
        for entry in entries {
            let data = entry.data
            try archive.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                                 permissions: 0o644, compressionMethod: entry.compressed ? .deflate : .none) { position, size in
                let start = Int(position)
                return data.subdata(in: start..<min(start + size, data.count))
            }
        }
    }
}
