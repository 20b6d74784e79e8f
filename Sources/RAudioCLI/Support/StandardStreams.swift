// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// Writes to stdout and stderr with POSIX `write`, so a closed pipe is an error to handle, not a crash.
///
/// `FileHandle.write(_:)` aborts the process on EPIPE even with SIGPIPE ignored; this does not. Call
/// `StandardStreams.ignoreSIGPIPE()` once at start-up. Thread-safe: each line is one `write` call.
public enum StandardStreams {
    /// Also ignores SIGXFSZ, so a write past a file-size limit (`ulimit -f`) fails with EFBIG and
    /// becomes an output error (exit 74) instead of killing the process.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Writes `line` and a newline to stdout. Throws `ReaderGone` when the pipe is closed.
    public static func printLine(_ line: String) throws(ReaderGone) {
        guard write(line + "\n", to: STDOUT_FILENO) else { throw ReaderGone() }
    }

    /// Writes `line`, UTF-8 that already ends with its newline, to stdout (one `write` call where the
    /// pipe takes it whole). Throws `ReaderGone` when the pipe is closed.
    public static func printLine(bytes line: [UInt8]) throws(ReaderGone) {
        guard write(bytes: line, to: STDOUT_FILENO) else { throw ReaderGone() }
    }

    /// Writes `line` and a newline (unless `newline` is false) to stderr; failures are ignored (there
    /// is nowhere left to report).
    public static func printError(_ line: String, newline: Bool = true) {
        _ = write(newline ? line + "\n" : line, to: STDERR_FILENO)
    }

    /// Writes all of `text` to `descriptor`, retrying on EINTR; false when the write failed.
    static func write(_ text: String, to descriptor: Int32) -> Bool {
        write(bytes: Array(text.utf8), to: descriptor)
    }

    /// Writes all of `bytes` to `descriptor`, retrying on EINTR; false when the write failed.
    static func write(bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
