// SPDX-License-Identifier: GPL-3.0-or-later
/// A table of big-endian integers left in the file (`stsz` sizes, `stco`/`co64` chunk offsets) and
/// read a window at a time: a sequential reader touches each entry once, and memory stays at one
/// window whatever the book's length.
final class MP4LazyTable {
    let count: Int
    private let files: MP4BoxReader
    /// Where entry 0 lies.
    private let base: UInt64
    /// Bytes per entry: 4 or 8.
    private let width: Int
    private var window: [UInt64] = []
    private var windowStart = 0
    private var scratch: [UInt8] = []

    /// Entries per read.
    private static let windowEntries = 2048

    init(files: MP4BoxReader, base: UInt64, count: Int, width: Int) {
        self.files = files
        self.base = base
        self.count = count
        self.width = width
    }

    /// Entry `index` (0-based); throws when the file cannot give it.
    subscript(index: Int) -> UInt64 {
        get throws(MP4Unsupported) {
            guard index >= 0, index < count else { throw MP4Unsupported("sample table entry \(index) is out of range") }
            if index < windowStart || index >= windowStart + window.count { try load(around: index) }
            return window[index - windowStart]
        }
    }

    private func load(around index: Int) throws(MP4Unsupported) {
        let start = index - index % Self.windowEntries
        let entries = min(Self.windowEntries, count - start)
        scratch = try files.bytes(at: base + UInt64(start * width), count: entries * width)
        var bytes = MP4Bytes(scratch)
        window.removeAll(keepingCapacity: true)
        for _ in 0..<entries {
            window.append(width == 8 ? try bytes.uint64() : UInt64(try bytes.uint32()))
        }
        windowStart = start
    }
}
