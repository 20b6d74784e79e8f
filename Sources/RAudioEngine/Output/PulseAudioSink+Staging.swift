// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import ReadiumNavigator

extension PulseAudioSink {
    /// Sends what `staging` holds with one `pa_stream_write` once `pa_stream_writable_size` has room
    /// for all of it. Lock held; the wait releases it, so `flush()` may empty the staging meanwhile
    /// (then nothing is sent). Throws `.serverLost` when the server dies, the sink is closed meanwhile,
    /// or the server takes nothing for `stallTimeout` (to twice that) while not paused.
    ///
    /// The stall is watched by `stallTimer`, armed when a wait begins and left armed across writes: it
    /// fires every `stallTimeout` at most while writes wait, and a firing with no write since it was
    /// armed is the stall. (Arming and disarming a timer around every wait woke the mainloop thread
    /// twice per request, a quarter of its wake-ups.)
    func sendStagedLocked() throws(AudioSinkError) {
        while true {
            try checkAliveLocked()
            guard !staging.isEmpty else { return }
            guard let stream, !isClosed else {
                throw AudioSinkError(.serverLost, message: "PulseAudio output closed while writing")
            }
            let writable = pa_stream_writable_size(stream)
            guard writable >= 0 else { throw lostError("writing audio") }
            if writable >= staging.count {
                guard pa_stream_write(stream, staging.bytes, staging.count, nil, 0, PA_SEEK_RELATIVE) == 0 else {
                    throw lostError("writing audio")
                }
                staging.removeAll()
                writesSent &+= 1
                return
            }
            if !corked { try watchForStallLocked() }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Before a wait for room on a playing stream: throws when the stall timer fired with no write
    /// since it was armed; arms it when it is not armed. Lock held, render thread.
    private func watchForStallLocked() throws(AudioSinkError) {
        if signals.stallTimerFired {
            signals.stallTimerFired = false
            isStallTimerArmed = false
            if writesSent == writesWhenStallTimerArmed {
                throw AudioSinkError(.serverLost, message: "\(serverName) stopped taking audio for \(stallTimeout)")
            }
        }
        guard !isStallTimerArmed else { return }
        let deadline = pa_rtclock_now() + stallTimeout.microseconds
        if let stallTimer {
            pa_context_rttime_restart(context, stallTimer, deadline)
        } else {
            stallTimer = pa_context_rttime_new(context, deadline, PulseCallbacks.stallTimerFired, signals.userdata)
        }
        isStallTimerArmed = true
        writesWhenStallTimerArmed = writesSent
    }

    /// Forgets the stall watch (a pause or resume: time spent paused is no stall). Lock held.
    func resetStallWatchLocked() {
        signals.stallTimerFired = false
        guard isStallTimerArmed, let stallTimer else { return }
        pa_context_rttime_restart(context, stallTimer, UInt64.max)
        isStallTimerArmed = false
    }
}
