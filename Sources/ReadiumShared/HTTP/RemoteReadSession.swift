// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A decoder's reads of one remote resource: the head fetched by the probe, then a `ReadAheadStream`
/// started at the first read past it.
///
/// Not thread-safe, like every `ResourceReadSession`: one reader uses it on one thread. Releasing it
/// stops its read-ahead thread.
final class RemoteReadSession: ResourceReadSession {
    private let url: String
    private let access: RemoteAccess
    private let probe: RemoteProbe
    private var stream: ReadAheadStream?

    init(url: String, access: RemoteAccess, probe: RemoteProbe) {
        self.url = url
        self.access = access
        self.probe = probe
    }

    deinit {
        stream?.cancel()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        guard offset < probe.length, buffer.count > 0 else { return 0 }
        var filled = 0
        let headCount = UInt64(probe.head.count)
        if offset < headCount {
            filled = probe.head.withUnsafeBytes { head in
                let count = min(buffer.count, Int(headCount - offset))
                buffer.baseAddress!.copyMemory(from: head.baseAddress! + Int(offset), byteCount: count)
                return count
            }
        }
        guard filled < buffer.count, offset + UInt64(filled) < probe.length else { return filled }
        if stream == nil {
            stream = ReadAheadStream(url: url, length: probe.length, access: access, acceptsRanges: probe.acceptsRanges, head: probe.head)
        }
        return filled + (try stream!.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: offset + UInt64(filled)))
    }
}
