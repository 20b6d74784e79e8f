// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

extension EventWriter {
    /// A navigator's `warning` or `error`: its typed code becomes the event's `code` here.
    public func report(
        _ severity: PlayerIssue.Severity, code: NavigatorIssue.Code, message: String, fatal: Bool, href: String? = nil, locator: Locator? = nil
    ) throws(ReaderGone) {
        try report(severity, code: code.rawValue, message: message, fatal: fatal, href: href, locator: locator)
    }
}
