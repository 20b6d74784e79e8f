// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Where rendered PCM goes: PulseAudio, a WAV file, or nowhere.
///
/// A sink is used by the render thread only (not thread-safe unless an implementation says so).
/// `write` blocks as long as the destination needs: PulseAudio and real-time pacing block to keep
/// the pace of the clock, the WAV and null sinks return as fast as they can.
public protocol AudioSink: AnyObject {
    /// Prepares the sink for PCM of `format`. Called again when the format changes between tracks:
    /// a sink that cannot change format mid-stream (WAV) converts, or throws `.formatChange`.
    func open(format: PCMFormat) throws(AudioSinkError)

    /// Writes interleaved frames of the format given to `open`. Blocks while the destination is full.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError)

    /// Frames written but not yet heard: the position the listener hears is the written position minus
    /// this. 0 for sinks that do not play (WAV, null without pacing).
    var pendingFrames: Int { get }

    /// Stops hearing audio now, keeping what is buffered (pause). `resume()` continues it.
    func pause()
    func resume()

    /// Drops what is buffered and not yet heard (after a seek or a stop).
    func flush()

    /// Waits until everything written has been heard (end of publication), then returns.
    func drain() throws(AudioSinkError)

    /// Releases the destination. A WAV file is complete only after `close()` returned without error.
    func close() throws(AudioSinkError)
}

/// Why a sink failed; the message names the file or server.
public typealias AudioSinkError = RAudioError<AudioSinkErrorDomain>

/// The domain of `AudioSinkError`; its codes are words of `RAudioErrorCode`.
public enum AudioSinkErrorDomain: RAudioErrorDomain {}
