// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

extension EventWriter {
    /// Prints a navigator's `warning` or `error`: its typed code becomes the event's `code` here, where
    /// it leaves the process.
    func report(
        _ type: String, code: NavigatorIssue.Code, message: String, fatal: Bool, href: String? = nil, locator: Locator? = nil
    ) throws(StandardStreams.ReaderGone) {
        try report(type, code: code.rawValue, message: message, fatal: fatal, href: href, locator: locator)
    }
}
