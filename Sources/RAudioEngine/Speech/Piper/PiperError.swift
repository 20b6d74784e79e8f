// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a Piper voice could not be found, loaded or spoken with; the message names the file or voice.
public struct PiperError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No Piper voice has the name asked for.
        case unknownVoice = "piper-unknown-voice"
        /// The model or its config is missing, truncated or not a Piper voice.
        case badVoice = "piper-bad-voice"
        /// The worker cannot start: no Python with piper-tts (run `make deps`), or no worker script.
        case workerUnavailable = "piper-worker-unavailable"
        /// The worker exited or broke its protocol while speaking.
        case workerFailed = "piper-worker-failed"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
