// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One ISO BMFF box: its type and where it lies in the file.
struct MP4Box {
    let type: String
    /// The first byte of the box (its size field).
    let start: UInt64
    /// The first byte after the header.
    let payload: UInt64
    /// The first byte after the box.
    let end: UInt64

    var payloadSize: Int { Int(end - payload) }
}

/// Reads boxes and their bytes from a resource, without loading more than is asked: a 10-hour M4B's
/// 6 MB sample-size table stays on disk until a sample needs it.
final class MP4BoxReader {
    let reader: ResourceReader

    init(reader: ResourceReader) { self.reader = reader }

    var length: UInt64 { reader.length }

    /// `count` bytes at `offset`.
    func bytes(at offset: UInt64, count: Int) throws(MP4Unsupported) -> [UInt8] {
        guard count >= 0, offset <= reader.length, UInt64(count) <= reader.length - offset else {
            throw MP4Unsupported("a box points past the end of the file")
        }
        var result = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return result }
        try read(at: offset, into: &result)
        return result
    }

    /// Fills `buffer` from `offset` on.
    func read(at offset: UInt64, into buffer: inout [UInt8]) throws(MP4Unsupported) {
        let count = buffer.count
        let copied = buffer.withUnsafeMutableBytes { raw -> Int in
            guard reader.seek(offset: Int64(offset), whence: SEEK_SET) >= 0 else { return -1 }
            return reader.read(into: raw.baseAddress!, count: count)
        }
        guard copied == count else { throw MP4Unsupported(reader.lastError?.message ?? "the file ends inside a box") }
    }

    /// A box's whole payload (for the small boxes: headers, descriptions, edit lists).
    func payload(of box: MP4Box, limit: Int = 16 << 20) throws(MP4Unsupported) -> [UInt8] {
        guard box.payloadSize <= limit else { throw MP4Unsupported("a \(box.type) box is too large (\(box.payloadSize) bytes)") }
        return try bytes(at: box.payload, count: box.payloadSize)
    }

    /// The boxes laid end to end from `start` to `end`. With `truncatedLast`, a last box that runs
    /// past `end` (the file's `mdat`, when the file was cut short) ends there instead of failing.
    func boxes(from start: UInt64, to end: UInt64, truncatedLast: Bool = false) throws(MP4Unsupported) -> [MP4Box] {
        var result: [MP4Box] = []
        var offset = start
        while offset + 8 <= end {
            var header = MP4Bytes(try bytes(at: offset, count: 8))
            var size = UInt64(try header.uint32())
            let type = try header.fourCC()
            var headerSize: UInt64 = 8
            if size == 1 {
                var large = MP4Bytes(try bytes(at: offset + 8, count: 8))
                size = try large.uint64()
                headerSize = 16
            } else if size == 0 {
                size = end - offset
            }
            if truncatedLast, size >= headerSize, offset + size > end {
                result.append(MP4Box(type: type, start: offset, payload: offset + headerSize, end: end))
                break
            }
            guard size >= headerSize, offset + size <= end else {
                throw MP4Unsupported("the \(type) box at byte \(offset) overruns its parent")
            }
            result.append(MP4Box(type: type, start: offset, payload: offset + headerSize, end: offset + size))
            offset += size
        }
        return result
    }

    /// The children of `box` (a container), skipping `skip` bytes of its own fields first.
    func children(of box: MP4Box, skip: UInt64 = 0) throws(MP4Unsupported) -> [MP4Box] {
        try boxes(from: box.payload + skip, to: box.end)
    }
}

extension Array where Element == MP4Box {
    func first(_ type: String) -> MP4Box? { first { $0.type == type } }
}
