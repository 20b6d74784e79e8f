// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import ReadiumNavigator

extension PulseAudioSink {
    /// Creates the mainloop and context, connects and waits (bounded) until the context is ready.
    /// Releases everything it made when it fails.
    static func connect(
        server: String?, serverName: String, identity: PulseAudioIdentity, timeout: Duration
    ) throws(AudioSinkError) -> (OpaquePointer, OpaquePointer, OpaquePointer, PulseMainloopSignals) {
        // libpulse is loaded here, on the first connection (CPulseAudio): a missing or broken one is no server.
        if let reason = raudio_pulse_load_error() {
            throw AudioSinkError(.serverUnavailable, message: "cannot play to PulseAudio: \(String(cString: reason)); or render to a file with --output wav:FILE")
        }
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw AudioSinkError(.serverUnavailable, message: "cannot create a PulseAudio mainloop")
        }
        let properties = identity.makeContextProperties()
        let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), identity.applicationName, properties)
        pa_proplist_free(properties)
        guard let context else {
            pa_threaded_mainloop_free(mainloop)
            throw AudioSinkError(.serverUnavailable, message: "cannot create a PulseAudio context")
        }
        let signals = PulseMainloopSignals(mainloop: mainloop)
        pa_context_set_state_callback(context, PulseCallbacks.contextStateChanged, signals.userdata)
        // The timer exists for the life of the sink; armed it bounds each wait, disarmed it sleeps.
        let timer = pa_context_rttime_new(context, pa_rtclock_now() + timeout.microseconds,
                                          PulseCallbacks.timerFired, signals.userdata)!

        func fail(_ reason: String) -> AudioSinkError {
            pa_threaded_mainloop_lock(mainloop)
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_threaded_mainloop_unlock(mainloop)
            pa_threaded_mainloop_stop(mainloop)
            pa_context_unref(context)
            pa_threaded_mainloop_free(mainloop)
            return AudioSinkError(.serverUnavailable, message:
                "\(serverName) is not reachable (\(reason)); start one or set PULSE_SERVER, or render to a file with --output wav:FILE")
        }

        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw fail(errorText(context))
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { throw fail("cannot start the mainloop thread") }
        pa_threaded_mainloop_lock(mainloop)
        var failure: String?
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            if PA_CONTEXT_IS_GOOD(state) == 0 { failure = errorText(context); break }
            if signals.timedOut { failure = "no answer within \(timeout)"; break }
            pa_threaded_mainloop_wait(mainloop)
        }
        if failure == nil {
            pa_context_rttime_restart(context, timer, UInt64.max)
            signals.timedOut = false
        }
        pa_threaded_mainloop_unlock(mainloop)
        if let failure { throw fail(failure) }
        return (mainloop, context, timer, signals)
    }

    /// Creates and connects a playback stream for `format` (`pa_stream_new_with_proplist`,
    /// `pa_stream_connect_playback`) and waits until it is ready. Lock held.
    func connectStreamLocked(format: PCMFormat) throws(AudioSinkError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        let properties = identity.makeStreamProperties()
        let newStream = pa_stream_new_with_proplist(context, identity.title, &spec, nil, properties)
        pa_proplist_free(properties)
        guard let newStream else {
            throw AudioSinkError(.outputFormatUnsupported, message: "\(serverName) cannot play \(format): \(Self.errorText(context))")
        }
        pa_stream_set_state_callback(newStream, PulseCallbacks.streamStateChanged, signals.userdata)
        pa_stream_set_write_callback(newStream, PulseCallbacks.streamWritable, signals.userdata)
        stream = newStream
        // A whole `requestInterval` is asked for at a time: the server sends a request, the render
        // thread wakes and writes, about 1 / requestInterval times a second instead of every 20 ms.
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(pa_usec_to_bytes(targetLatency.microseconds, &spec)),
            prebuf: UInt32.max,
            minreq: UInt32(pa_usec_to_bytes(requestInterval.microseconds, &spec)),
            fragsize: UInt32.max)
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
        if corked { flags |= PA_STREAM_START_CORKED.rawValue }
        guard pa_stream_connect_playback(newStream, nil, &attributes, pa_stream_flags_t(rawValue: flags), nil, nil) == 0 else {
            let error = lostError("opening a stream")
            disconnectStreamLocked()
            throw error
        }
        armTimerLocked(after: .seconds(2))
        defer { disarmTimerLocked() }
        while pa_stream_get_state(newStream) != PA_STREAM_READY {
            do throws(AudioSinkError) {
                try checkAliveLocked()
                if signals.timedOut { throw AudioSinkError(.serverLost, message: "\(serverName) did not open a stream in time") }
            } catch {
                disconnectStreamLocked()
                throw error
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        // What the server granted (it may round or raise what was asked).
        var requestBytes = Int(attributes.minreq)
        if let granted = pa_stream_get_buffer_attr(newStream) {
            requestBytes = Int(min(granted.pointee.minreq, granted.pointee.tlength))
        }
        staging.reset(requestBytes: requestBytes, frameBytes: format.channelCount * MemoryLayout<Float>.size)
    }

    /// Disconnects and releases the stream, if any. Lock held.
    func disconnectStreamLocked() {
        guard let stream = self.stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
    }
}

extension Duration {
    /// Whole microseconds (pa_usec_t), negative durations as 0.
    var microseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }
}
