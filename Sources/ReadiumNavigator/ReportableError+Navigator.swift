// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension TTSError: ReportableError {
    public var codeName: String { code.rawValue }
}

extension AudioSinkError: ReportableError {
    public var codeName: String { code.rawValue }
}

extension AudioNavigatorError: ReportableError {
    public var codeName: String { code.rawValue }
}

extension AudioDecoderError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { href }
}
