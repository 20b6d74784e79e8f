// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Reads a remote resource ahead of its reader on a thread of its own, into a bounded `ByteRing`.
///
/// The reader (a decoder's thread) asks for bytes at an offset: held bytes are copied at once; an
/// offset a little ahead of the window is waited for; any other offset (a seek) restarts the fetching
/// there, so a seek fetches only from where it lands. The thread fetches with bounded range requests:
/// one of half the ring after a restart, delivered to the reader as its bytes arrive (so a seek costs
/// one request), then refills growing with what the reader uses, up to half the ring ahead, so that
/// each response ends normally and its connection is kept alive for the next. With a server that ignores
/// `Range`, one transfer streams the rest of the file and waits while the ring is full.
///
/// The thread ends when `cancel()` is called (by the session's deinit) and holds no lock while on the
/// network. Memory is bounded by the ring's capacity.
final class ReadAheadStream: @unchecked Sendable {
    let url: String
    let length: UInt64
    let access: RemoteAccess
    let acceptsRanges: Bool

    /// Guards everything below and wakes the reader and the fetching thread.
    private let condition = NSCondition()
    private let ring: ByteRing
    /// Changes at every restart; a transfer of an older generation stops delivering.
    private var generation = 0
    /// Whether the reader asked for bytes since the last restart or failure.
    private var active = false
    private var failure: ResourceError?
    private var cancelled = false
    /// Bytes fetched since the last restart: the first request after a restart is kept small.
    private var fetchedSinceRestart = 0
    /// Where the reader's last read ended, and where the last restart put it.
    private var readerPosition: UInt64 = 0
    private var restartOffset: UInt64 = 0
    /// Where the running request's range ends (0 when none runs): a read before it waits for it.
    private var inFlightEnd: UInt64 = 0

    /// The read-ahead wanted right after a restart (the smallest request is a quarter of it).
    static let firstRequestBytes = 64 * 1024
    /// Bytes kept behind the reader, so that a short step back is served without a request.
    static let keptBehindBytes = 32 * 1024
    /// What a reader that had to wait waits for past its read before it goes on (`rebuffer(after:)`):
    /// below the read-ahead's smallest target (`firstRequestBytes`), so the fetching always reaches it.
    static let rebufferBytes = 32 * 1024

    /// The resource's first bytes (the probe's), for the disk cache's first block.
    let head: Data

    init(url: String, length: UInt64, access: RemoteAccess, acceptsRanges: Bool, head: Data = Data()) {
        self.url = url
        self.head = head
        self.length = length
        self.access = access
        self.acceptsRanges = acceptsRanges
        ring = ByteRing(capacity: access.readAheadBytes)
        BlockingWork.startThread(named: "raudio.read-ahead") { [self] in fetchLoop() }
    }

    /// Stops the fetching thread (it ends within a second even in the middle of a transfer). Cancelling
    /// the `RemoteAccess` also ends it, and fails a waiting read.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        access.bufferGauge.forget(url: url, stream: ObjectIdentifier(self))
    }

    /// Tells the gauge how far the ring reaches. Lock held.
    private func recordBuffer() {
        access.bufferGauge.record(url: url, stream: ObjectIdentifier(self), fetchedEnd: ring.end, length: length)
    }

    /// Fills `buffer` with the bytes at `offset`, waiting for the network as needed; returns how many,
    /// fewer only at the end of the resource. Called by one reader thread, whose `ResourceWaitObserver`
    /// hears of a wait longer than its threshold and of its end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        condition.lock()
        var waitingSince: Date?
        var toldWaiting = false
        defer {
            condition.unlock()
            if toldWaiting { ResourceWaitObserver.notify(waiting: false) }
        }
        var filled = 0
        while filled < buffer.count {
            let position = offset + UInt64(filled)
            guard position < length else { break }
            if ring.contains(position) {
                filled += ring.copy(from: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                readerPosition = offset + UInt64(filled)
                let behind = readerPosition
                ring.discard(before: behind > UInt64(Self.keptBehindBytes) ? behind - UInt64(Self.keptBehindBytes) : 0)
                recordBuffer()
                condition.broadcast()
                continue
            }
            if let failure {
                if position == ring.end {
                    // The fetching failed where this read needs bytes: report it; the next read tries anew.
                    self.failure = nil
                    active = false
                    throw failure
                }
                restart(at: position)
            } else if !active || position < ring.start || position > max(ring.end, inFlightEnd) {
                restart(at: position)
            } else {
                // The bytes the fetching brings next (at the window's end, or further on in the running
                // request): drop what precedes them so that it can go on.
                ring.discard(before: position)
                readerPosition = position
                condition.broadcast()
            }
            if isAccessCancelled { throw access.cancellation.error(href: url) }
            let now = Date()
            let since = waitingSince ?? now
            waitingSince = since
            if !toldWaiting, now.timeIntervalSince(since) >= ResourceWaitObserver.threshold {
                toldWaiting = true
                ResourceWaitObserver.notify(waiting: true)
            }
            // Timed, so that a cancellation of the access is noticed even if the fetching thread is stuck.
            let wake = toldWaiting ? 0.25 : min(0.25, ResourceWaitObserver.threshold - now.timeIntervalSince(since) + 0.001)
            _ = condition.wait(until: now.addingTimeInterval(wake))
        }
        if toldWaiting { rebuffer(after: offset + UInt64(filled)) }
        return filled
    }

    /// After a wait long enough to be reported, holds the reader until `rebufferBytes` past `end` are in
    /// the ring (or the resource's end, a failure, a restart or a cancellation), as players rebuffer
    /// before they play again: a server that keeps breaking or trickling would otherwise make playback,
    /// and the reported state, flip between loading and playing at every few kilobytes. Lock held.
    private func rebuffer(after end: UInt64) {
        let goal = min(length, end + UInt64(min(Self.rebufferBytes, ring.capacity / 8)))
        let current = generation
        while ring.end < goal, ring.end >= end, failure == nil, active, generation == current, !cancelled, !isAccessCancelled {
            _ = condition.wait(until: Date().addingTimeInterval(0.25))
        }
    }

    /// Lock held.
    private func restart(at offset: UInt64) {
        generation += 1
        ring.reset(at: offset)
        failure = nil
        active = true
        fetchedSinceRestart = 0
        readerPosition = offset
        restartOffset = offset
        inFlightEnd = 0
        condition.broadcast()
    }

    /// Up to `count` bytes from `offset` out of the disk cache, when the block holding `offset` is there.
    private func cachedBytes(from offset: UInt64, count: UInt64) -> Data? {
        guard let cache = access.cache else { return nil }
        let blockSize = UInt64(RemoteByteCache.blockSize)
        guard let block = cache.block(url: url, length: length, index: offset / blockSize) else { return nil }
        let from = Int(offset % blockSize)
        let to = min(block.count, from + Int(clamping: count))
        return from < to ? block.subdata(in: from..<to) : nil
    }

    private func fetchLoop() {
        // Only this thread touches the assembler.
        var assembler = access.cache.map { CacheBlockAssembler(cache: $0, url: url, length: length, head: head) }
        condition.lock()
        while !cancelled && !isAccessCancelled {
            // How far to read ahead grows with what the reader used since the last restart (twice that,
            // up to half the ring): a seek, which may be followed by another at once, fetches little; steady
            // playback keeps half the ring ahead and refills it with large requests (few round trips).
            let ahead = ring.end > readerPosition ? ring.end - readerPosition : 0
            let consumed = readerPosition > restartOffset ? readerPosition - restartOffset : 0
            let target = min(UInt64(ring.capacity / 2), max(UInt64(Self.firstRequestBytes), consumed * 2))
            let smallest = min(Self.firstRequestBytes / 4, ring.capacity)
            let wantsMore = ahead < target && ring.freeSpace >= smallest
            guard active, failure == nil, ring.end < length, wantsMore || ring.count == 0 else {
                _ = condition.wait(until: Date().addingTimeInterval(1))
                continue
            }
            let current = generation
            let start = ring.end
            // The first request after a restart asks for half the ring at once: read as it arrives, it
            // serves the reader's first read and goes on as the read-ahead, so a seek costs one request
            // (the next seek stops it where it got to).
            let size = fetchedSinceRestart == 0 && ring.count == 0
                ? min(ring.freeSpace, max(smallest, ring.capacity / 2))
                : min(ring.freeSpace, max(smallest, Int(target * 2 > ahead ? target * 2 - ahead : 0)))
            let range = acceptsRanges ? start..<min(length, start + UInt64(size)) : start..<length
            inFlightEnd = range.upperBound
            condition.unlock()
            if let cached = cachedBytes(from: start, count: range.upperBound - range.lowerBound) {
                _ = cached.withUnsafeBytes { deliver($0, generation: current) }
                condition.lock()
                if generation == current { inFlightEnd = 0 }
                condition.broadcast()
                continue
            }
            let transfer = RemoteTransfer(url: url, access: access, acceptsRanges: acceptsRanges)
            var caught: ResourceError?
            var offset = start
            do {
                _ = try transfer.run(range, shouldStop: { isStale(current) }) { bytes in
                    assembler?.take(bytes, at: offset)
                    offset += UInt64(bytes.count)
                    return deliver(bytes, generation: current)
                }
            } catch {
                caught = error
            }
            condition.lock()
            if generation == current { inFlightEnd = 0 }
            if let caught, generation == current { failure = caught }
            condition.broadcast()
        }
        condition.unlock()
    }

    private func isStale(_ expected: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled || generation != expected
    }

    /// Wakes a reader waiting on the network once the access is cancelled (polled while it waits).
    private var isAccessCancelled: Bool { access.cancellation.isCancelled }

    /// Appends `bytes` to the ring, waiting for room (a server that ignores `Range` sends more than fits);
    /// false when the generation changed or the stream was cancelled.
    private func deliver(_ bytes: UnsafeRawBufferPointer, generation expected: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        var done = 0
        while done < bytes.count {
            guard !cancelled, !isAccessCancelled, generation == expected else { return false }
            let appended = ring.append(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            done += appended
            fetchedSinceRestart += appended
            recordBuffer()
            condition.broadcast()
            if done < bytes.count { _ = condition.wait(until: Date().addingTimeInterval(0.25)) }
        }
        return true
    }
}
