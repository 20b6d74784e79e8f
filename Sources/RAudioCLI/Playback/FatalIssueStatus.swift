// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

extension ExitStatus {
    /// The exit status for a fatal problem reported by a navigator, from its stable code.
    init(fatalIssueCode code: String) {
        switch code {
        case "audio-server-unavailable", "audio-server-lost", "output-lost": self = .audioServerUnavailable
        // A remote book whose server cannot be reached, or keeps refusing, up to its end.
        case "track-unreachable", "track-unavailable": self = .serviceUnavailable
        case "output-not-created": self = .cannotCreateOutput
        case "output-write-failed": self = .outputIOError
        case "internal-error": self = .internalError
        default: self = .badData
        }
    }
}
