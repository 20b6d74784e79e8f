// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

extension ExitStatus {
    /// The exit status for a fatal problem reported by a navigator, from its code.
    init(fatalIssueCode code: NavigatorIssue.Code) {
        switch code {
        case .audioServerUnavailable, .audioServerLost, .outputLost: self = .audioServerUnavailable
        // A remote book whose server cannot be reached, or keeps refusing, up to its end.
        case .trackUnreachable, .trackUnavailable: self = .serviceUnavailable
        case .outputNotCreated: self = .cannotCreateOutput
        case .outputWriteFailed: self = .outputIOError
        case .internalError: self = .internalError
        default: self = .badData
        }
    }
}
