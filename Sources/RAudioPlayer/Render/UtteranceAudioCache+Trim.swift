// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import Synchronization

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

    /// A render's hold on the cache, from before its first utterance until its outputs are written: a shared
    /// `flock` on `DIR/.lock`, so that no other render trims the cache under it. A share run beside others
    /// (`--shard`, GNU parallel on one machine) packs into its part file the utterances it stored, and a `--merge`
    /// writes its outputs from the files it unpacked: a trim by another render between the two would lose them.
    ///
    /// The lock goes with `end()`, or when the value is released (Swift may release it after its last use: call
    /// `end()`). When the lock file cannot be opened or locked (a file system without `flock`), the use holds
    /// nothing, and `trim` throws: it removes nothing. `flock` works between the machines sharing a network volume
    /// only where the volume passes it on (NFS with its lock manager; not NFS `local_lock=flock` or `nolock`).
    public final class Use: Sendable {
        /// The lock file's descriptor, -1 once ended (or when it could not be opened).
        private let descriptor: Mutex<Int32>

        fileprivate init(descriptor: Int32) {
            self.descriptor = Mutex(descriptor)
        }

        /// Releases the lock (a second call does nothing).
        public func end() {
            descriptor.withLock { descriptor in
                if descriptor >= 0 { close(descriptor) }
                descriptor = -1
            }
        }

        deinit {
            end()
        }
    }

    /// Starts a use of the cache (`Use`), waiting while another render trims it. Blocking I/O.
    public func beginUse() -> Use {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var descriptor = openLockFile()
        if descriptor >= 0, Self.flockRetryingInterrupts(descriptor, LOCK_SH) != 0 {
            close(descriptor)  // a file system without locks: nothing to hold (and the trim will say it cannot lock)
            descriptor = -1
        }
        return Use(descriptor: descriptor)
    }

    /// `DIR/.lock`, opened for `flock` (read-only when another user made it: `flock` needs no write access; never
    /// through a link, which could make raudio create a file elsewhere); -1 when it cannot be.
    private func openLockFile() -> Int32 {
        let path = lockPath
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        return descriptor >= 0 ? descriptor : open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    }

    /// `DIR/.lock`, the file every render locks.
    private var lockPath: String { folder.appendingPathComponent(".lock").path }

    private static func flockRetryingInterrupts(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        var status: Int32
        repeat { status = flock(descriptor, operation) } while status != 0 && errno == EINTR
        return status
    }

    /// Removes the least recently used utterance files (stored or loaded longest ago) until those left take at most
    /// `limit` bytes on disk. Only the cache's own files (`isEntryPath`, and temporary files of a store that
    /// was killed, when older than a day) are looked at or removed: a folder given with `--cache` may hold others;
    /// its subfolders that are symbolic links are not followed.
    ///
    /// Nil when another render is using the cache (`beginUse()`; the caller ends its own use first): nothing is
    /// removed then, and a render that ends alone trims. Throws, removing nothing, when the lock cannot be taken at
    /// all (a folder that cannot be read, a file system without `flock`). Blocking I/O.
    public func trim(toBytes limit: Int64, now: Date = Date()) throws(AudioSinkError) -> Trim? {
        guard FileManager.default.fileExists(atPath: folder.path) else { return Trim() }
        let lock = openLockFile()
        guard lock >= 0 else {
            throw AudioSinkError(.writeFailed, subject: lockPath, message: "cannot open the cache's lock: \(String(cString: strerror(errno)))",
                                 underlyingStatus: errno)
        }
        defer { close(lock) }
        guard Self.flockRetryingInterrupts(lock, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK { return nil }
            throw AudioSinkError(.writeFailed, subject: lockPath, message: "cannot lock the cache: \(String(cString: strerror(errno)))",
                                 underlyingStatus: errno)
        }
        struct Entry {
            let url: URL
            let bytes: Int64
            let used: Date
        }
        var entries: [Entry] = []
        var result = Trim()
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey, .totalFileAllocatedSizeKey, .fileSizeKey, .contentModificationDateKey]
        let subfolders = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isSymbolicLinkKey])) ?? []
        for subfolder in subfolders where Self.isShardFolderName(subfolder.lastPathComponent) {
            guard (try? subfolder.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == false else { continue }
            let files = (try? FileManager.default.contentsOfDirectory(at: subfolder, includingPropertiesForKeys: keys)) ?? []
            for file in files {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true, values.isSymbolicLink == false
                else { continue }
                let bytes = Int64(values.totalFileAllocatedSize ?? values.fileSize ?? 0)
                let used = values.contentModificationDate ?? .distantPast
                let name = file.lastPathComponent
                if Self.isEntryPath(subfolder.lastPathComponent + "/" + name) {
                    entries.append(Entry(url: file, bytes: bytes, used: used))
                } else if Self.isTemporaryFileName(name), now.timeIntervalSince(used) > 86_400,
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

    /// Whether `name` is a temporary file of `storeFile(_:at:)`: `.`, an entry's name, `.`, a process id, `.tmp`.
    static func isTemporaryFileName(_ name: String) -> Bool {
        name.range(of: #"^\.[0-9a-f]{32}\.utterance\.[0-9]+\.tmp$"#, options: .regularExpression) != nil
    }

    /// Whether `name` is one of the cache's subfolders: two lowercase hex digits (`relativePath(for:)`).
    private static func isShardFolderName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
