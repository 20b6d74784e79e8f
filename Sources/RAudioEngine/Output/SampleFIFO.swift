// SPDX-License-Identifier: GPL-3.0-or-later
/// A first-in first-out buffer of Float samples that reuses its storage.
///
/// Grows (doubling) only when a push does not fit, so a steady stream stops allocating after the first
/// few buffers. Not thread-safe: owned by one processor on the render thread.
struct SampleFIFO: ~Copyable {
    private var storage: UnsafeMutablePointer<Float>
    private var capacity: Int
    private var start = 0
    private var end = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// Samples (not frames) buffered.
    var count: Int { end - start }

    /// Appends `samples`.
    mutating func push(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let destination = reserve(samples.count)
        destination.update(from: base, count: samples.count)
        commit(samples.count)
    }

    /// Returns room for `count` samples at the end; write into it, then `commit`.
    mutating func reserve(_ count: Int) -> UnsafeMutablePointer<Float> {
        if end + count > capacity {
            let used = end - start
            if used + count > capacity {
                var newCapacity = capacity
                while used + count > newCapacity { newCapacity *= 2 }
                let newStorage = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity)
                newStorage.update(from: storage + start, count: used)
                storage.deallocate()
                storage = newStorage
                capacity = newCapacity
            } else {
                // Overlapping move to the front: copyMemory has memmove semantics.
                UnsafeMutableRawPointer(storage).copyMemory(from: storage + start, byteCount: used * MemoryLayout<Float>.stride)
            }
            start = 0
            end = used
        }
        return storage + end
    }

    /// Marks `count` samples written after `reserve` as buffered.
    mutating func commit(_ count: Int) { end += count }

    /// Moves up to `buffer.count` samples into `buffer`; returns how many.
    mutating func pop(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let n = min(buffer.count, count)
        guard n > 0, let base = buffer.baseAddress else { return 0 }
        base.update(from: storage + start, count: n)
        start += n
        if start == end { start = 0; end = 0 }
        return n
    }

    mutating func removeAll() { start = 0; end = 0 }
}
