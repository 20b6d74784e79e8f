// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a `TTSEngine` could not list voices or speak an utterance; the message names the voice or
/// language, `underlyingStatus` is the engine's own status where there is one.
public typealias TTSError = RAudioError<TTSErrorCode>

/// The category of a `TTSError`.
public enum TTSErrorCode: String, RAudioErrorCode {
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

    /// The message, and the engine's status after it when there is one.
    public static func describe(_ error: TTSError) -> String {
        guard let status = error.underlyingStatus else { return error.plainDescription }
        return "\(error.plainDescription) (status \(status))"
    }
}
