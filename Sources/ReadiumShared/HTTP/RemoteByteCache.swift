// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Fetched bytes of remote resources on disk, so that seeking back or playing a book again does not
/// fetch them again.
///
/// Bytes are kept in aligned blocks of `blockSize` (the last block of a resource may be shorter), one
/// file each, under a folder per resource named by a hash of its URL and length (a resource whose length
/// changed is a new one). Blocks are written whole (a temporary file renamed into place), so a reader
/// never sees half a block, even from another raudio process. When the blocks pass `capacity` bytes the
/// least recently used go first (reads refresh a block's modification time). Thread-safe; calls do file
/// I/O, so they belong on the threads that also fetch (read-ahead threads, decoders).
public final class RemoteByteCache: Sendable {
    public static let blockSize = 256 * 1024

    public let folder: URL
    /// The most bytes of blocks kept.
    public let capacity: Int64
    /// Bytes of blocks on disk, as last counted plus what this process wrote since.
    private let usedBytes: Locked<Int64>

    /// A cache in `folder` (made when missing), trimmed at once to `capacity`.
    public init(folder: URL, capacity: Int64) {
        self.folder = folder
        self.capacity = max(Int64(Self.blockSize), capacity)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        usedBytes = Locked(Self.blockFiles(in: folder).reduce(0) { $0 + $1.size })
        trimIfNeeded()
    }

    /// `$XDG_CACHE_HOME/raudio`, else `~/.cache/raudio`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("raudio")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/raudio")
    }

    /// The block `index` of the resource at `url` (of `length` bytes), or nil when not cached.
    public func block(url: String, length: UInt64, index: UInt64) -> Data? {
        let file = blockFile(url: url, length: length, index: index)
        guard let data = FileManager.default.contents(atPath: file.path), data.count == Self.expectedSize(of: index, length: length) else {
            return nil
        }
        // The modification time is the "last used" that eviction sorts by.
        utimes(file.path, nil)
        return data
    }

    /// Stores block `index` of the resource at `url`; `data` must be the whole block.
    public func store(_ data: Data, url: String, length: UInt64, index: UInt64) {
        guard data.count == Self.expectedSize(of: index, length: length) else { return }
        let file = blockFile(url: url, length: length, index: index)
        let resourceFolder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: resourceFolder, withIntermediateDirectories: true)
            let label = resourceFolder.appendingPathComponent("url")
            if !FileManager.default.fileExists(atPath: label.path) { try Data(url.utf8).write(to: label) }
            let temporary = resourceFolder.appendingPathComponent(".\(index).\(UUID().uuidString)")
            try data.write(to: temporary)
            guard rename(temporary.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
        } catch {
            return
        }
        usedBytes.withLock { $0 += Int64(data.count) }
        trimIfNeeded()
    }

    /// Bytes of blocks on disk now (counted from the files).
    public var storedBytes: Int64 {
        Self.blockFiles(in: folder).reduce(0) { $0 + $1.size }
    }

    /// Removes the least recently used blocks until the cache holds at most 90% of its capacity.
    private func trimIfNeeded() {
        guard usedBytes.withLock({ $0 }) > capacity else { return }
        let files = Self.blockFiles(in: folder).sorted { $0.used < $1.used }
        var total = files.reduce(0) { $0 + $1.size }
        for file in files where total > capacity * 9 / 10 {
            if unlink(file.path) == 0 { total -= file.size }
        }
        usedBytes.withLock { $0 = total }
    }

    private func blockFile(url: String, length: UInt64, index: UInt64) -> URL {
        folder.appendingPathComponent(Self.key(url: url, length: length)).appendingPathComponent("\(index).block")
    }

    static func expectedSize(of index: UInt64, length: UInt64) -> Int {
        let start = index * UInt64(blockSize)
        guard start < length else { return 0 }
        return Int(min(UInt64(blockSize), length - start))
    }

    /// FNV-1a (64 bits) of the URL, and the length: a folder name.
    static func key(url: String, length: UInt64) -> String {
        String(FNV1a64(url).value, radix: 16) + "-" + String(length)
    }

    /// Every block file under `folder`: path, size and modification time.
    static func blockFiles(in folder: URL) -> [(path: String, size: Int64, used: Double)] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(String, Int64, Double)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".block") else { continue }
            let path = folder.path + "/" + relative
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            found.append((path, Int64(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
        }
        return found
    }
}
