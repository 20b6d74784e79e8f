// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// An `AudioSink` that wraps the real one and records the instant of the first `write`, then forwards
/// every call unchanged.
///
/// The instant is taken on entry to the first `write` (the moment the buffer is handed to the output),
/// on the boot-time clock (`CLOCK_BOOTTIME`, the clock of `/proc/self/stat`'s `starttime`) and on
/// `ContinuousClock`. Render thread only, like every sink; the recorded instants are read from any
/// thread through `FirstWriteTimingSink.Record`.
final class FirstWriteTimingSink: AudioSink {
    /// Where the first write is recorded; shared between the render thread and the benchmark.
    final class Record: Sendable {
        private struct Instants {
            var bootSeconds: Double?
            var instant: ContinuousClock.Instant?
        }
        private let instants = Locked(Instants())
        private let written = DispatchSemaphore(value: 0)

        /// Seconds since boot (`CLOCK_BOOTTIME`) at the first write, nil before it.
        var bootSeconds: Double? { instants.withLock { $0.bootSeconds } }
        /// `ContinuousClock.now` at the first write, nil before it.
        var instant: ContinuousClock.Instant? { instants.withLock { $0.instant } }

        fileprivate func mark() {
            let boot = ProcessStartTime.bootTimeNow()
            let now = ContinuousClock.now
            instants.withLock { $0 = Instants(bootSeconds: boot, instant: now) }
            written.signal()
        }

        /// Wakes `waitForFirstWrite` without a write (the benchmark failed before any).
        func cancel() { written.signal() }

        /// Blocks the calling thread (never a cooperative-pool thread) until the first write, or
        /// `timeout` seconds; returns whether it was written.
        func waitForFirstWrite(timeout: Double) -> Bool {
            written.wait(timeout: .now() + timeout) == .success
        }
    }

    private let inner: any AudioSink
    private let record: Record
    private var hasWritten = false

    init(wrapping inner: any AudioSink, record: Record) {
        self.inner = inner
        self.record = record
    }

    func open(format: PCMFormat) throws(AudioSinkError) { try inner.open(format: format) }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        if !hasWritten {
            hasWritten = true
            record.mark()
        }
        try inner.write(samples)
    }

    var pendingFrames: Int { inner.pendingFrames }
    func pause() { inner.pause() }
    func resume() { inner.resume() }
    func flush() { inner.flush() }
    func drain() throws(AudioSinkError) { try inner.drain() }
    func close() throws(AudioSinkError) { try inner.close() }
}

extension AudioComponents {
    /// These components with their sink wrapped in a `FirstWriteTimingSink` reporting to `record`.
    func timingFirstWrite(into record: FirstWriteTimingSink.Record) -> AudioComponents {
        var components = self
        let makeInner = makeSink
        components.makeSink = { () throws(AudioSinkError) -> any AudioSink in
            FirstWriteTimingSink(wrapping: try makeInner(), record: record)
        }
        return components
    }
}
