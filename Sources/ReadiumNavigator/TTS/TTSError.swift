// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a `TTSEngine` could not list voices or speak an utterance.
public struct TTSError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No voice has the identifier asked for.
        case unknownVoice = "tts-unknown-voice"
        /// The language tag is malformed.
        case invalidLanguage = "tts-invalid-language"
        /// The engine could not start (its data is missing, for eSpeak NG `espeak_Initialize` failed).
        case engineUnavailable = "tts-engine-unavailable"
        /// The engine's shared library could not be loaded (for eSpeak NG, libespeak-ng.so.1 is missing or
        /// broken); the message names the file (exit 69).
        case libraryUnavailable = "tts-library-unavailable"
        /// The engine failed while synthesizing (for eSpeak NG, a non-OK `espeak_ERROR`).
        case synthesisFailed = "tts-synthesis-failed"
        /// The caller cancelled the utterance.
        case cancelled = "tts-cancelled"
    }

    public var code: Code
    /// What went wrong, for a person; names the voice or language.
    public var message: String
    /// The engine's own status code, where there is one.
    public var underlyingStatus: Int32?

    public init(_ code: Code, message: String, underlyingStatus: Int32? = nil) {
        self.code = code
        self.message = message
        self.underlyingStatus = underlyingStatus
    }

    public var description: String {
        if let underlyingStatus { return "\(message) (status \(underlyingStatus))" }
        return message
    }
}
