// SPDX-License-Identifier: GPL-3.0-or-later
import CMPG123
import Dispatch
import Foundation
import ReadiumShared

/// Builds an MP3's frame index on a background thread, for an `MPG123Decoder` to adopt later.
///
/// A thread of its own ("raudio.mp3-scan") opens a second libmpg123 handle on the same resource and
/// runs `mpg123_scan`, then keeps the frame offsets (`mpg123_index`) and the exact length
/// (`mpg123_length`) behind a `Locked`. The decoder takes them on its own thread and applies them with
/// `mpg123_set_index`: the two handles never meet. `cancel()` (from any thread) makes the scan's reads
/// fail, so the scan stops at its next read and the thread frees its handle; nothing leaks.
final class MPG123FrameIndexScan: Sendable {
    /// What the scan learnt.
    struct Result: Sendable {
        /// Byte offsets of every `step`-th frame, as `mpg123_index` gives them.
        var offsets: [off_t]
        var step: off_t
        /// The exact length in PCM frames after the scan.
        var frameCount: Int64
    }

    private enum State {
        case running
        case finished(Result?)
        case taken
    }

    private let state = Locked<State>(.running)
    private let finishedSignal = DispatchSemaphore(value: 0)
    let cancellation = CancellationFlag()

    private init() {}

    /// Starts scanning `resource` on a new thread and returns at once.
    static func start(resource: any Resource) -> MPG123FrameIndexScan {
        let scan = MPG123FrameIndexScan()
        BlockingWork.startThread(named: "raudio.mp3-scan") { scan.run(resource: resource) }
        return scan
    }

    /// Stops the scan soon; safe from any thread, any number of times.
    func cancel() {
        cancellation.cancel()
    }

    /// The result, once, when the scan finished successfully; nil while running, after failure, or
    /// when already taken. Never blocks for long.
    func takeResult() -> Result? {
        state.withLock { state in
            guard case .finished(let result) = state else { return nil }
            state = .taken
            return result
        }
    }

    /// Whether the scan has ended (successfully or not).
    var isFinished: Bool {
        state.withLock { if case .running = $0 { false } else { true } }
    }

    /// Blocks the calling thread until the scan ended. Used when a caller needs the exact length now
    /// (a seek with no length known); costs at most the rest of the scan.
    func waitUntilFinished() {
        guard !isFinished else { return }
        finishedSignal.wait()
        finishedSignal.signal()
    }

    private func run(resource: any Resource) {
        let result = scan(resource: resource)
        state.withLock { $0 = .finished(result) }
        finishedSignal.signal()
    }

    private func scan(resource: any Resource) -> Result? {
        guard !cancellation.isCancelled,
              let handle = try? MPG123Handle(resource: resource, cancellation: cancellation),
              mpg123_scan(handle.raw) == MPG123_OK.rawValue,
              !cancellation.isCancelled,
              let frameCount = handle.length()
        else { return nil }
        var offsetsPointer: UnsafeMutablePointer<off_t>?
        var step: off_t = 0
        var fill = 0
        guard mpg123_index(handle.raw, &offsetsPointer, &step, &fill) == MPG123_OK.rawValue,
              let offsetsPointer, fill > 0
        else { return Result(offsets: [], step: 1, frameCount: frameCount) }
        let offsets = Array(UnsafeBufferPointer(start: offsetsPointer, count: fill))
        return Result(offsets: offsets, step: step, frameCount: frameCount)
    }
}
