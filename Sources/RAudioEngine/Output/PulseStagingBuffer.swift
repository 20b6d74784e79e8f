// SPDX-License-Identifier: GPL-3.0-or-later
/// Audio gathered for one `pa_stream_write`: about one server request (`minreq`) of bytes.
///
/// Not thread-safe: `PulseAudioSink` touches it only with the mainloop lock held.
final class PulseStagingBuffer {
    private(set) var bytes: UnsafeMutableRawPointer
    /// Bytes it gathers before it is full; a whole number of frames.
    private(set) var capacity: Int
    /// Bytes gathered.
    private(set) var count = 0

    init() {
        capacity = 0
        bytes = .allocate(byteCount: 0, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count >= capacity }

    /// Drops what it holds and gathers `requestBytes` (rounded down to whole frames, at least one
    /// frame) from now on.
    func reset(requestBytes: Int, frameBytes: Int) {
        count = 0
        let newCapacity = max(requestBytes / frameBytes, 1) * frameBytes
        guard newCapacity != capacity else { return }
        bytes.deallocate()
        bytes = .allocate(byteCount: newCapacity, alignment: 16)
        capacity = newCapacity
    }

    /// Copies as much of `source` as fits; returns how many bytes it took.
    func append(_ source: UnsafeRawPointer, count sourceCount: Int) -> Int {
        let taken = min(sourceCount, capacity - count)
        guard taken > 0 else { return 0 }
        (bytes + count).copyMemory(from: source, byteCount: taken)
        count += taken
        return taken
    }

    /// Forgets what it holds (after a flush or once sent).
    func removeAll() {
        count = 0
    }
}
