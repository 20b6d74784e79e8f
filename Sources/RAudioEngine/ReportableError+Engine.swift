// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension FFmpegLibrary.LoadFailure: ReportableError {
    var codeName: String { "ffmpeg-unavailable" }
    var description: String { message }
}
