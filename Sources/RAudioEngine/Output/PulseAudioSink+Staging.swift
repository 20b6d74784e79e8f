// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import ReadiumNavigator

extension PulseAudioSink {
    /// Sends what `staging` holds with one `pa_stream_write` once `pa_stream_writable_size` has room
    /// for all of it. Lock held; the wait releases it, so `flush()` may empty the staging meanwhile
    /// (then nothing is sent). Throws `.serverLost` when the server dies, the sink is closed meanwhile,
    /// or the server takes nothing for `stallTimeout` while not paused.
    func sendStagedLocked() throws(AudioSinkError) {
        var stalled = false
        defer { if stalled { disarmTimerLocked() } }
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
                return
            }
            if corked {
                if stalled { disarmTimerLocked() }
                stalled = false
            } else if !stalled {
                stalled = true
                armTimerLocked(after: stallTimeout)
            } else if signals.timedOut {
                throw AudioSinkError(.serverLost, message: "PulseAudio server \(serverName) stopped taking audio for \(stallTimeout)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }
}
