// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension EventWriter {
    /// A `warning` or `error` event for any module's error, in its shared shape: its code word, its
    /// subject as `href`, its message (with the subject in front where `description` puts it).
    public func report(
        _ severity: PlayerIssue.Severity, _ error: some ReportableError, fatal: Bool, locator: Locator? = nil, id: CommandID? = nil
    ) throws(ReaderGone) {
        try report(severity, code: error.codeName, message: error.description, fatal: fatal, href: error.subject, locator: locator, id: id)
    }
}
