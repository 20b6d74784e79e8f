// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension CommandParseError: ReportableError {
    public var codeName: String { code.rawValue }
}

extension CommandFailure: ReportableError {
    public var codeName: String { code }
}

extension CommandRefusal: ReportableError {
    public var codeName: String { code }
    public var description: String { message }
}
