// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine

/// `--verbose`: the libraries' own log on stderr, after raudio's prefix. Today FFmpeg's warnings and errors
/// (`raudio: ffmpeg: [aac] audio object type 8 is not implemented`); without it FFmpeg is quiet and raudio's
/// own messages say what matters (with FFmpeg's reason in them).
enum VerboseLog {
    static func enable() {
        FFmpegLog.setHandler { line in StandardStreams.printError("raudio: ffmpeg: \(line)") }
    }
}
