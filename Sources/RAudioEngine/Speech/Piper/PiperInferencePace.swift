// SPDX-License-Identifier: GPL-3.0-or-later

/// How a Piper worker's two inference threads wait for each other between the steps of one inference
/// (ONNX Runtime's "spinning"): what suits the output raudio speaks to.
public enum PiperInferencePace: Sendable, Equatable {
    /// Live playback (PulseAudio, or a paced file): the threads sleep while they wait. The least CPU: the
    /// worker speaks a little ahead of the listener and then idles, and spinning would burn what it saves.
    case live
    /// Rendering faster than real time (a WAV file or the null output, without `--realtime`): the threads
    /// spin while they wait, so each inference ends sooner on two free cores. The worker speaks one
    /// utterance after the other and never idles, so little is burnt (120 s of Moby-Dick: about 13 % less
    /// time, about 2 % more CPU).
    case rendering

    /// The worker's environment variable that carries it.
    static let environmentVariable = "RAUDIO_PIPER_SPINNING"

    var environmentValue: String { self == .rendering ? "1" : "0" }
}
