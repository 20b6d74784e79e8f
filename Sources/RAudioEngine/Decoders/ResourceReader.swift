// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Synchronization

/// A buffered, seekable byte stream over a `Resource`, for C decoders' read/seek callbacks.
///
/// It reads the resource in 64 KiB blocks through a `ResourceReadSession` (a file stays open while the
/// reader lives: one descriptor per reader) into one buffer allocated at creation (no allocation per
/// read), so libmpg123's many small reads (two per frame header while seeking) cost one resource read
/// per block. Not thread-safe: one C handle uses it on one thread. C code holds it through `Unmanaged`, retained once, and releases it
/// in its close/cleanup callback.
final class ResourceReader {
    /// Bytes per read from the resource.
    static let blockSize = 64 * 1024

    /// Readers alive in this process, so tests can prove that every C handle released its reader.
    static let liveCount = Atomic<Int>(0)

    let resource: any Resource
    let length: UInt64
    /// Where the next `read` starts.
    private(set) var position: UInt64 = 0
    /// The first resource error met by a callback; C sees only -1, the decoder reports this.
    private(set) var lastError: ResourceError?
    /// When set (by any thread), reads fail at once: a background scan stops.
    let cancellation: CancellationFlag?

    /// The resource kept open for this reader's reads (a file: one descriptor, not one per block).
    private let session: any ResourceReadSession
    private let block = UnsafeMutableRawBufferPointer.allocate(byteCount: ResourceReader.blockSize, alignment: 16)
    /// Valid bytes in `block`, which holds the resource from `blockStart`.
    private var blockCount = 0
    private var blockStart: UInt64 = 0

    init(resource: any Resource, cancellation: CancellationFlag? = nil) throws(ResourceError) {
        self.resource = resource
        self.length = try resource.length()
        session = try resource.openReadSession()
        self.cancellation = cancellation
        Self.liveCount.add(1, ordering: .relaxed)
    }

    deinit {
        block.deallocate()
        Self.liveCount.subtract(1, ordering: .relaxed)
    }

    /// Copies up to `count` bytes at the current position into `destination`; returns the bytes copied,
    /// 0 at the end, -1 on a read error or cancellation.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        if cancellation?.isCancelled == true { return -1 }
        guard position < length, count > 0 else { return 0 }
        var copied = 0
        while copied < count, position < length {
            if position < blockStart || position >= blockStart + UInt64(blockCount) {
                guard fillBlock(at: position) else { return copied > 0 ? copied : -1 }
                if blockCount == 0 { break }
            }
            let offsetInBlock = Int(position - blockStart)
            let available = min(blockCount - offsetInBlock, count - copied)
            (destination + copied).copyMemory(from: block.baseAddress! + offsetInBlock, byteCount: available)
            copied += available
            position += UInt64(available)
        }
        return copied
    }

    /// Moves the position like `lseek`: `whence` is SEEK_SET, SEEK_CUR or SEEK_END. Returns the new
    /// position, or -1 for a negative one.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        let base: Int64 = switch whence {
        case SEEK_SET: 0
        case SEEK_CUR: Int64(position)
        case SEEK_END: Int64(length)
        default: -1
        }
        guard base >= 0 else { return -1 }
        let target = base + offset
        guard target >= 0 else { return -1 }
        position = UInt64(target)
        return target
    }

    private func fillBlock(at offset: UInt64) -> Bool {
        let wanted = Int(min(length - offset, UInt64(Self.blockSize)))
        do {
            blockCount = try session.read(into: UnsafeMutableRawBufferPointer(rebasing: block[0..<wanted]), at: offset)
            blockStart = offset
            return true
        } catch {
            if lastError == nil { lastError = error }
            return false
        }
    }
}

/// A flag one thread sets and another polls: tells a background scan to stop.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .acquiring) }

    func cancel() { flag.store(true, ordering: .releasing) }
}
