// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension UtteranceAudioCache {
    /// What `trim(toBytes:)` did.
    public struct Trim: Sendable, Equatable {
        /// The utterance files removed, and their bytes.
        public var removedFiles = 0
        public var removedBytes: Int64 = 0
        /// The bytes of utterance files left.
        public var keptBytes: Int64 = 0

        public init(removedFiles: Int = 0, removedBytes: Int64 = 0, keptBytes: Int64 = 0) {
            self.removedFiles = removedFiles
            self.removedBytes = removedBytes
            self.keptBytes = keptBytes
        }
    }

    /// Removes the least recently used utterance files (stored or loaded longest ago) until those left take at most
    /// `limit` bytes on disk. Only the cache's own files (`isEntryPath`, and temporary files of a store that
    /// was killed, when older than a day) are looked at or removed: a folder given with `--cache` may hold others.
    ///
    /// Blocking I/O. Another render using the same folder at the same time loses nothing but time: a file removed
    /// under it is a miss, spoken again.
    public func trim(toBytes limit: Int64, now: Date = Date()) -> Trim {
        struct Entry {
            let url: URL
            let bytes: Int64
            let used: Date
        }
        var entries: [Entry] = []
        var result = Trim()
        let keys: [URLResourceKey] = [.isRegularFileKey, .totalFileAllocatedSizeKey, .fileSizeKey, .contentModificationDateKey]
        let subfolders = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for subfolder in subfolders where Self.isShardFolderName(subfolder.lastPathComponent) {
            let files = (try? FileManager.default.contentsOfDirectory(at: subfolder, includingPropertiesForKeys: keys)) ?? []
            for file in files {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                let bytes = Int64(values.totalFileAllocatedSize ?? values.fileSize ?? 0)
                let used = values.contentModificationDate ?? .distantPast
                let name = file.lastPathComponent
                if Self.isEntryPath(subfolder.lastPathComponent + "/" + name) {
                    entries.append(Entry(url: file, bytes: bytes, used: used))
                } else if name.hasPrefix("."), name.hasSuffix(".tmp"), now.timeIntervalSince(used) > 86_400,
                          (try? FileManager.default.removeItem(at: file)) != nil {
                    result.removedFiles += 1
                    result.removedBytes += bytes
                }
            }
        }
        var total = entries.reduce(Int64(0)) { $0 + $1.bytes }
        for entry in entries.sorted(by: { ($0.used, $0.url.path) < ($1.used, $1.url.path) }) where total > limit {
            guard (try? FileManager.default.removeItem(at: entry.url)) != nil else { continue }
            total -= entry.bytes
            result.removedFiles += 1
            result.removedBytes += entry.bytes
        }
        result.keptBytes = total
        return result
    }

    /// Whether `name` is one of the cache's subfolders: two lowercase hex digits (`relativePath(for:)`).
    private static func isShardFolderName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
