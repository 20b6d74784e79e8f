// SPDX-License-Identifier: GPL-3.0-or-later
/// A fixed-capacity window of a resource's bytes: bytes are appended at its end and dropped from its
/// start, and it knows at which offset of the resource it starts.
///
/// Allocated once; no allocation per append or copy. Not thread-safe: `ReadAheadStream` guards it.
final class ByteRing {
    let capacity: Int
    /// The offset in the resource of the first byte held.
    private(set) var start: UInt64 = 0
    private(set) var count = 0
    private let storage: UnsafeMutableRawBufferPointer
    /// Where `start`'s byte sits in `storage`.
    private var head = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// The offset just past the last byte held.
    var end: UInt64 { start + UInt64(count) }
    var freeSpace: Int { capacity - count }

    func contains(_ offset: UInt64) -> Bool {
        offset >= start && offset < end
    }

    /// Empties the window, which then starts at `offset`.
    func reset(at offset: UInt64) {
        start = offset
        count = 0
        head = 0
    }

    /// Appends as many of `bytes` as fit; returns how many.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let appended = min(bytes.count, freeSpace)
        var done = 0
        while done < appended {
            let tail = (head + count) % capacity
            let run = min(appended - done, capacity - tail)
            (storage.baseAddress! + tail).copyMemory(from: bytes.baseAddress! + done, byteCount: run)
            done += run
            count += run
        }
        return appended
    }

    /// Copies the bytes from `offset` (which must be held) into `buffer`; returns how many.
    func copy(from offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard contains(offset) else { return 0 }
        let skip = Int(offset - start)
        let wanted = min(buffer.count, count - skip)
        var done = 0
        while done < wanted {
            let position = (head + skip + done) % capacity
            let run = min(wanted - done, capacity - position)
            (buffer.baseAddress! + done).copyMemory(from: storage.baseAddress! + position, byteCount: run)
            done += run
        }
        return wanted
    }

    /// Drops the bytes before `offset` (all of them when `offset` is past the end, which stays put:
    /// appends go on at `end`).
    func discard(before offset: UInt64) {
        guard offset > start else { return }
        let dropped = Int(min(offset, end) - start)
        head = (head + dropped) % capacity
        count -= dropped
        start += UInt64(dropped)
    }
}
