// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension VoicePresetError: ReportableError {
    public var codeName: String { "voice-preset-invalid" }
    public var subject: String? { file }
}

extension DBusError: ReportableError {
    public var codeName: String { "dbus-failed" }
    public var underlyingStatus: Int32? { code }
}

extension ResamplerError: ReportableError {
    public var codeName: String { "resampler-failed" }
}

extension FFmpegLibrary.LoadFailure: ReportableError {
    var codeName: String { "ffmpeg-unavailable" }
    var description: String { message }
}
