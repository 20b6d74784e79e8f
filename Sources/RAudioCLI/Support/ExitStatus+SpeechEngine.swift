// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

extension ExitStatus {
    /// The exit status when eSpeak NG cannot start: 69 when its library cannot be loaded (the message
    /// names libespeak-ng.so.1), 70 otherwise (`espeak_Initialize` failed on an installed library).
    init(speechEngineError error: TTSError) {
        self = error.code == .libraryUnavailable ? .serviceUnavailable : .internalError
    }
}
