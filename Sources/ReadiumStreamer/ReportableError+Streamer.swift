// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension OpeningError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { path }
}

extension EPUBError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { href }
}

extension XMLError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { href }
}
