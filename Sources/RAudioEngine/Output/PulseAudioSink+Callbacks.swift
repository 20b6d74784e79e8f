// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio

/// What libpulse's callbacks tell the thread waiting on the threaded mainloop.
///
/// Every field is read and written with the mainloop lock held (callbacks run on the mainloop thread
/// under that lock), hence `@unchecked Sendable`. Passed to libpulse as userdata via `Unmanaged`.
final class PulseMainloopSignals: @unchecked Sendable {
    let mainloop: OpaquePointer
    /// Set by the one-shot timer; cleared when it is armed.
    var timedOut = false
    /// Set by the stall timer (`PulseAudioSink.sendStagedLocked`); cleared by the writer.
    var stallTimerFired = false

    init(mainloop: OpaquePointer) {
        self.mainloop = mainloop
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseMainloopSignals? {
        userdata.map { Unmanaged<PulseMainloopSignals>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The C callbacks given to libpulse. All run on the mainloop thread with its lock held; each wakes the
/// waiting thread, which re-checks context and stream state itself.
enum PulseCallbacks {
    /// `pa_context_notify_cb_t`: the context changed state (connected, failed, terminated).
    static let contextStateChanged: pa_context_notify_cb_t = { _, userdata in
        wake(userdata)
    }

    /// `pa_stream_notify_cb_t`: the stream changed state.
    static let streamStateChanged: pa_stream_notify_cb_t = { _, userdata in
        wake(userdata)
    }

    /// `pa_stream_request_cb_t`: the server wants more audio.
    static let streamWritable: pa_stream_request_cb_t = { _, _, userdata in
        wake(userdata)
    }

    /// `pa_stream_success_cb_t`: a cork, flush or drain operation completed.
    static let operationCompleted: pa_stream_success_cb_t = { _, _, userdata in
        wake(userdata)
    }

    /// `pa_time_event_cb_t`: the wait deadline passed.
    static let timerFired: pa_time_event_cb_t = { _, _, _, userdata in
        PulseMainloopSignals.from(userdata)?.timedOut = true
        wake(userdata)
    }

    /// `pa_time_event_cb_t`: the stall timer of a waiting `write` fired.
    static let stallTimerFired: pa_time_event_cb_t = { _, _, _, userdata in
        PulseMainloopSignals.from(userdata)?.stallTimerFired = true
        wake(userdata)
    }

    private static func wake(_ userdata: UnsafeMutableRawPointer?) {
        guard let signals = PulseMainloopSignals.from(userdata) else { return }
        pa_threaded_mainloop_signal(signals.mainloop, 0)
    }
}
