// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Warnings met outside the render thread's reports: a remote track's retry, met on a read-ahead or
/// opening thread, goes to the listeners as a `warning` event like every other.
extension AudioNavigator {
    /// Emits `issue` as a `warning` event, at the position heard when it has no locator. Callable from
    /// any thread; the event comes in the order the actor takes it.
    public nonisolated func reportWarning(_ issue: NavigatorIssue) {
        Task { await emitWarning(issue) }
    }

    private func emitWarning(_ issue: NavigatorIssue) {
        var issue = issue
        if issue.locator == nil { issue.locator = currentLocation }
        session.emit(.warning(issue))
    }
}
