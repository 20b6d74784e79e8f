// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import Testing

/// The speech buffer pool: reuse without changing what anyone reads, and bounded retention.
struct PCMSampleBufferPoolTests {
    @Test func aRecycledBufferIsTakenAgainEmptyWithItsCapacity() {
        let pool = PCMSampleBufferPool(maximumCount: 4, maximumCapacity: 1 << 20)
        var first = pool.take(minimumCapacity: 10_000)
        #expect(first.isEmpty && first.capacity >= 10_000)
        first.append(contentsOf: repeatElement(0.5, count: 10_000))
        let address = first.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        pool.recycle(first)
        first = []
        let again = pool.take(minimumCapacity: 5_000)
        #expect(again.isEmpty)
        #expect(again.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address, "the pooled memory was not reused")
        #expect(pool.count == 0)
    }

    @Test func aBufferStillSharedKeepsItsSamplesWhenReused() {
        let pool = PCMSampleBufferPool(maximumCount: 4, maximumCapacity: 1 << 20)
        var buffer = pool.take(minimumCapacity: 100)
        buffer.append(contentsOf: [1, 2, 3])
        let stillHeld = buffer
        pool.recycle(buffer)
        var reused = pool.take(minimumCapacity: 100)
        reused.append(9)
        #expect(stillHeld == [1, 2, 3])
        #expect(reused == [9])
    }

    @Test func retentionIsBoundedAndTheLargestBuffersGoFirst() {
        let pool = PCMSampleBufferPool(maximumCount: 2, maximumCapacity: 100_000)
        for capacity in [1_000, 50_000, 2_000, 200_000] {
            var buffer: [Float] = []
            buffer.reserveCapacity(capacity)
            buffer.append(1)
            pool.recycle(buffer)
        }
        // 200,000 is over the maximum; of 1,000, 50,000 and 2,000 the largest was dropped.
        #expect(pool.count == 2)
        let taken = [pool.take(minimumCapacity: 1), pool.take(minimumCapacity: 1)].map(\.capacity).sorted()
        #expect(taken[1] < 50_000, "kept capacities \(taken)")
    }
}
