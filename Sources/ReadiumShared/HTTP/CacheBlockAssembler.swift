// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Gathers the bytes a read-ahead thread fetches, in order, into whole `RemoteByteCache` blocks.
///
/// Bytes before the first block boundary it sees are skipped (a block is only stored whole); a jump in
/// offsets (a seek) drops the block in progress. The resource's head (fetched by the probe, never by the
/// read-ahead) is taken first when the bytes continue it, so block 0 completes too. Used by one thread.
struct CacheBlockAssembler {
    let cache: RemoteByteCache
    let url: String
    let length: UInt64
    private var index: UInt64?
    private var buffer = Data()
    /// The offset the next bytes must have to continue the block in progress.
    private var expected: UInt64?

    /// The resource's first bytes.
    let head: Data

    init(cache: RemoteByteCache, url: String, length: UInt64, head: Data) {
        self.cache = cache
        self.url = url
        self.length = length
        self.head = head
    }

    /// Takes `bytes`, which sit at `offset` in the resource; stores each block it completes.
    mutating func take(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
        if expected != offset {
            reset()
            if !head.isEmpty, offset == UInt64(head.count) {
                head.withUnsafeBytes { takeContiguous($0, at: 0) }
            }
        }
        takeContiguous(bytes, at: offset)
    }

    private mutating func takeContiguous(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
        let blockSize = UInt64(RemoteByteCache.blockSize)
        var position = offset
        var consumed = 0
        while consumed < bytes.count {
            if index == nil {
                let next = (position + blockSize - 1) / blockSize * blockSize
                let skip = next - position
                guard skip < UInt64(bytes.count - consumed) else { break }
                consumed += Int(skip)
                position = next
                index = position / blockSize
                buffer.removeAll(keepingCapacity: true)
            }
            let wanted = RemoteByteCache.expectedSize(of: index!, length: length) - buffer.count
            let taken = min(wanted, bytes.count - consumed)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed..<(consumed + taken)]))
            consumed += taken
            position += UInt64(taken)
            if buffer.count == RemoteByteCache.expectedSize(of: index!, length: length) {
                cache.store(buffer, url: url, length: length, index: index!)
                index = nil
            }
        }
        expected = offset + UInt64(bytes.count)
    }

    private mutating func reset() {
        index = nil
        buffer.removeAll(keepingCapacity: true)
    }
}
