// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// A fatal navigator issue's typed code decides the exit status (docs/events.md, Exit codes).
@Suite("Fatal issue exit statuses")
struct FatalIssueStatusTests {
    @Test(arguments: [
        (NavigatorIssue.Code.audioServerLost, RAudioPlayer.ExitStatus.audioServerUnavailable),
        (.audioServerUnavailable, .audioServerUnavailable),
        (.outputLost, .audioServerUnavailable),
        (.trackUnreachable, .serviceUnavailable),
        (.trackUnavailable, .serviceUnavailable),
        (.outputNotCreated, .cannotCreateOutput),
        (.outputWriteFailed, .outputIOError),
        (.internalError, .internalError),
        (.trackCorrupt, .badData),
        (.noPlayableTrack, .badData),
        (.noText, .badData),
        (NavigatorIssue.Code(rawValue: "a-code-of-tomorrow"), .badData),
    ])
    func fatalCodeGivesItsExitStatus(code: NavigatorIssue.Code, status: RAudioPlayer.ExitStatus) {
        #expect(RAudioPlayer.ExitStatus(fatalIssueCode: code) == status)
    }
}
