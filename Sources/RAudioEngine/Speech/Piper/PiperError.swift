// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a Piper voice could not be found, loaded or spoken with; the message names the file or voice.
public typealias PiperError = RAudioError<PiperErrorCode>

/// The category of a `PiperError`.
public enum PiperErrorCode: String, RAudioErrorCode {
    /// No Piper voice has the name asked for.
    case unknownVoice = "piper-unknown-voice"
    /// The model or its config is missing, truncated or not a Piper voice.
    case badVoice = "piper-bad-voice"
    /// The worker cannot start: no Python with piper-tts (run `make deps`), or no worker script.
    case workerUnavailable = "piper-worker-unavailable"
    /// The worker exited or broke its protocol while speaking.
    case workerFailed = "piper-worker-failed"
}
