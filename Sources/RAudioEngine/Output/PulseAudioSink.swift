// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import Foundation
import ReadiumNavigator

/// An `AudioSink` that plays through a PulseAudio (or PipeWire-pulse) server.
///
/// Uses libpulse's asynchronous API on a `pa_threaded_mainloop` (its own thread): float32le streams at
/// the format given to `open`, about `targetLatency` of buffering filled one `requestInterval` at a
/// time (one `pa_stream_write` per server request), application and media properties from a
/// `PulseAudioIdentity`. Volume is not set here: the engine scales samples itself.
///
/// Every wait re-checks the context and stream states and most waits have a deadline, so a missing
/// server fails `init` within `connectTimeout` (`.serverUnavailable`), and a server that dies while
/// playing makes `write`/`drain` throw `.serverLost` promptly instead of hanging.
///
/// Threads: `open`, `write`, `drain` and `close` belong to the render thread. `pause`, `resume`, `flush`
/// and `pendingFrames` take the mainloop lock and may be called from another thread, also while `write`
/// is blocked waiting for room (the wait releases the lock). Hence `@unchecked Sendable`: mutable state is
/// only touched with the mainloop lock held, or by the render thread alone (`format`).
public final class PulseAudioSink: AudioSink, @unchecked Sendable {
    /// The server as messages name it: "PulseAudio server 'unix:/run/pulse'", or "the default PulseAudio
    /// server" (`describe(server:)`).
    public let serverName: String

    /// How messages name `server`: "PulseAudio server 'NAME'", or "the default PulseAudio server" when none
    /// is set (it said "PulseAudio server the default server").
    public static func describe(server: String?) -> String {
        server.flatMap { $0.isEmpty ? nil : "PulseAudio server '\($0)'" } ?? "the default PulseAudio server"
    }
    public let identity: PulseAudioIdentity
    /// Buffering asked of the server (`tlength`).
    public let targetLatency: Duration
    /// How much audio the server asks for at a time (`minreq`): `write` waits until this much room is
    /// free, so the render thread wakes and sends about once per interval. Bounds how long a blocked
    /// `write` holds the render thread (hence its reaction to pause or seek).
    public let requestInterval: Duration
    /// What `write` gathered and has not sent yet: less than one request. Lock held.
    let staging = PulseStagingBuffer()
    let mainloop: OpaquePointer
    let context: OpaquePointer
    let timer: OpaquePointer
    let signals: PulseMainloopSignals
    /// The playback stream; nil before `open`. Lock held.
    var stream: OpaquePointer?
    /// The format of `stream`. Written with the lock held, read by the render thread.
    var format: PCMFormat?
    /// Whether playback is paused; a stream opened while paused starts corked. Lock held.
    var corked = false
    /// Set by `close()`; every later call returns at once. Lock held.
    var isClosed = false
    /// How long `write` waits for room on an uncorked stream before it calls the server lost (it
    /// notices between once and twice this).
    let stallTimeout: Duration
    /// Fires `stallTimeout` after a wait for room began; created at the first such wait. Lock held.
    var stallTimer: OpaquePointer?
    /// Whether `stallTimer` is armed, and `writesSent` when it was. Lock held.
    var isStallTimerArmed = false
    var writesWhenStallTimerArmed = 0
    /// `pa_stream_write` calls so far. Lock held.
    var writesSent = 0

    /// Connects to `server` (default: `$PULSE_SERVER`, else libpulse's default) within `connectTimeout`.
    /// `requestInterval` is capped at half of `targetLatency`. The defaults (400 ms, requests of 200 ms:
    /// 5 writes a second) keep at least 200 ms queued when the server asks for more, and took about 15 %
    /// less client CPU playing an MP3 than requests of 100 ms. `write` calls a server that takes no
    /// audio for `stallTimeout` while playing lost.
    /// Calls `pa_context_connect` without autospawn. Throws `.serverUnavailable` when no server answers.
    public init(
        identity: PulseAudioIdentity,
        server: String? = ProcessInfo.processInfo.environment["PULSE_SERVER"],
        targetLatency: Duration = .milliseconds(400),
        requestInterval: Duration = .milliseconds(200),
        connectTimeout: Duration = .seconds(1),
        stallTimeout: Duration = .seconds(5)
    ) throws(AudioSinkError) {
        let server = server.flatMap { $0.isEmpty ? nil : $0 }
        serverName = Self.describe(server: server)
        self.identity = identity
        self.targetLatency = targetLatency
        self.requestInterval = min(requestInterval, targetLatency / 2)
        self.stallTimeout = stallTimeout
        (mainloop, context, timer, signals) = try Self.connect(
            server: server, serverName: serverName, identity: identity, timeout: connectTimeout)
    }

    deinit {
        shutDown()
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: AudioSink

    /// Opens a playback stream for `format`. The same format keeps the current stream; another format
    /// lets the current stream finish playing (`pa_stream_drain`) and replaces it.
    public func open(format: PCMFormat) throws(AudioSinkError) {
        guard (1...Int(PA_CHANNELS_MAX)).contains(format.channelCount),
              (1...Int(PA_RATE_MAX)).contains(format.sampleRate) else {
            throw AudioSinkError(.outputFormatUnsupported, message: "PulseAudio cannot play \(format)")
        }
        try checkOpen()
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        if stream != nil, self.format == format { return }
        if stream != nil {
            try drainLocked()
            disconnectStreamLocked()
        }
        try connectStreamLocked(format: format)
        self.format = format
    }

    /// Writes interleaved frames. They are gathered into one request's worth (`requestInterval`) and
    /// sent with a single `pa_stream_write` once the server has room for it (`pa_stream_writable_size`),
    /// so the render thread wakes and sends about once per request instead of once per decoded chunk.
    /// Blocks while the gathered request waits for room (at most about one `requestInterval` while
    /// playing; until `resume()` while paused with a full buffer).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        try checkOpen()
        guard let format, stream != nil else {
            throw AudioSinkError(.outputFormatUnsupported, message: "PulseAudio output written before open(format:)")
        }
        let frameBytes = format.channelCount * MemoryLayout<Float>.size
        var bytes = UnsafeRawPointer(base)
        var remaining = samples.count / format.channelCount * frameBytes
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        while remaining > 0 {
            let count = staging.append(bytes, count: remaining)
            bytes += count
            remaining -= count
            if staging.isFull { try sendStagedLocked() }
        }
    }

    /// Frames written but not heard yet: those `write` still gathers plus, while playing,
    /// `pa_stream_get_latency` (interpolated timing; without timing data it requests an update with
    /// `pa_stream_update_timing_info`, waiting at most 0.5 s), while paused the server's queue (write
    /// index minus read index of `pa_stream_get_timing_info`, updated when the cork completed: the
    /// interpolated latency of a corked stream can read 0). 0 when no stream is open.
    public var pendingFrames: Int {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream, let format, !isClosed else { return 0 }
        let frameBytes = format.channelCount * MemoryLayout<Float>.size
        let staged = staging.count / frameBytes
        if corked, let queued = queuedBytesLocked(stream) { return queued / frameBytes + staged }
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &latency, &negative) != 0 {
            // No timing data yet (fresh or corked stream): ask for it once, bounded.
            waitLocked(for: pa_stream_update_timing_info(stream, PulseCallbacks.operationCompleted, signals.userdata),
                       timeout: .milliseconds(500))
            guard pa_stream_get_latency(stream, &latency, &negative) == 0 else { return staged }
        }
        guard negative == 0 else { return staged }
        return Int(Double(latency) * Double(format.sampleRate) / 1_000_000) + staged
    }

    /// Stops playback keeping the buffer (`pa_stream_cork`). A stream opened while paused starts corked.
    public func pause() { setCorked(true) }

    /// Continues after `pause()` (`pa_stream_cork` with 0).
    public func resume() { setCorked(false) }

    /// Drops what the server holds and has not played (`pa_stream_flush`).
    public func flush() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream, !isClosed else { return }
        staging.removeAll()
        waitLocked(for: pa_stream_flush(stream, PulseCallbacks.operationCompleted, signals.userdata), timeout: .seconds(1))
    }

    /// Waits until everything written has played (`pa_stream_drain`); resumes a paused stream first.
    /// Throws `.serverLost` when the server dies or does not finish within the buffered time plus 3 s.
    public func drain() throws(AudioSinkError) {
        try checkOpen()
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        try drainLocked()
    }

    /// Disconnects the stream and the context and stops the mainloop thread. Does not drain first:
    /// call `drain()` to hear the end. A second call does nothing.
    public func close() throws(AudioSinkError) {
        shutDown()
    }
}

extension PulseAudioSink {
    private func checkOpen() throws(AudioSinkError) {
        if isClosed { throw AudioSinkError(.serverLost, message: "PulseAudio output already closed") }
    }

    private func setCorked(_ cork: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard !isClosed, corked != cork else { return }
        corked = cork
        resetStallWatchLocked()
        guard let stream else { return }
        waitLocked(for: pa_stream_cork(stream, cork ? 1 : 0, PulseCallbacks.operationCompleted, signals.userdata),
                   timeout: .seconds(1))
        if cork {
            // The queue stands still from now on: one fresh reading serves `pendingFrames` while paused.
            waitLocked(for: pa_stream_update_timing_info(stream, PulseCallbacks.operationCompleted, signals.userdata),
                       timeout: .milliseconds(500))
        }
        // The cork wakes no writer by itself when the buffer was full: wake it to re-read `corked`.
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    private func drainLocked() throws(AudioSinkError) {
        guard let stream, let format else { return }
        if corked {
            corked = false
            waitLocked(for: pa_stream_cork(stream, 0, PulseCallbacks.operationCompleted, signals.userdata), timeout: .seconds(1))
        }
        try sendStagedLocked()
        try checkAliveLocked()
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &latency, &negative) != 0 || negative != 0 { latency = 0 }
        let timeout = Duration.microseconds(Int64(latency)) + .seconds(3)
        guard let operation = pa_stream_drain(stream, PulseCallbacks.operationCompleted, signals.userdata) else {
            throw lostError("finishing playback")
        }
        let finished = waitLocked(for: operation, timeout: timeout)
        try checkAliveLocked()
        guard finished else {
            throw AudioSinkError(.serverLost, message: "\(serverName) did not finish playing \(format) audio within \(timeout)")
        }
    }

    /// Bytes in the server's queue not yet handed to the device (write index minus read index), or nil
    /// without valid timing data. Lock held.
    func queuedBytesLocked(_ stream: OpaquePointer) -> Int? {
        guard let info = pa_stream_get_timing_info(stream)?.pointee,
              info.write_index_corrupt == 0, info.read_index_corrupt == 0 else { return nil }
        return Int(max(info.write_index - info.read_index, 0))
    }

    /// Throws `.serverLost` when the context or the stream is no longer good. Lock held.
    func checkAliveLocked() throws(AudioSinkError) {
        if PA_CONTEXT_IS_GOOD(pa_context_get_state(context)) == 0 { throw lostError("playing") }
        if let stream, PA_STREAM_IS_GOOD(pa_stream_get_state(stream)) == 0 { throw lostError("playing") }
    }

    func lostError(_ doing: String) -> AudioSinkError {
        AudioSinkError(.serverLost, message: "\(serverName) was lost while \(doing): \(Self.errorText(context))")
    }

    /// Waits until `operation` completes, the deadline passes or the connection dies; unrefs it.
    /// Returns whether it completed. Lock held.
    @discardableResult
    func waitLocked(for operation: OpaquePointer?, timeout: Duration) -> Bool {
        guard let operation else { return false }
        defer { pa_operation_unref(operation) }
        armTimerLocked(after: timeout)
        defer { disarmTimerLocked() }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            if signals.timedOut { return false }
            if (try? checkAliveLocked()) == nil { return false }
            pa_threaded_mainloop_wait(mainloop)
        }
        return pa_operation_get_state(operation) == PA_OPERATION_DONE
    }

    /// Arms the one-shot deadline timer (`pa_context_rttime_restart`). Lock held.
    func armTimerLocked(after duration: Duration) {
        signals.timedOut = false
        pa_context_rttime_restart(context, timer, pa_rtclock_now() + duration.microseconds)
    }

    /// Disarms the deadline timer (`PA_USEC_INVALID`). Lock held.
    func disarmTimerLocked() {
        pa_context_rttime_restart(context, timer, UInt64.max)
        signals.timedOut = false
    }

    /// Disconnects stream and context and stops the mainloop thread; the handles stay allocated until
    /// deinit so that late calls from other threads can still take the lock and see `isClosed`.
    func shutDown() {
        pa_threaded_mainloop_lock(mainloop)
        if isClosed {
            pa_threaded_mainloop_unlock(mainloop)
            return
        }
        isClosed = true
        staging.removeAll()
        resetStallWatchLocked()
        disconnectStreamLocked()
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
    }

    static func errorText(_ context: OpaquePointer) -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }
}
