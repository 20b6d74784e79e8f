// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a `TTSEngine` could not list voices or speak an utterance; the message names the voice or
/// language, `underlyingStatus` is the engine's own status where there is one.
public typealias TTSError = RAudioError<TTSErrorDomain>

/// The domain of `TTSError`; its codes are words of `RAudioErrorCode`.
public enum TTSErrorDomain: RAudioErrorDomain {
    /// The message, and the engine's status after it when there is one.
    public static func describe(_ error: TTSError) -> String {
        guard let status = error.underlyingStatus else { return error.plainDescription }
        return "\(error.plainDescription) (status \(status))"
    }
}
