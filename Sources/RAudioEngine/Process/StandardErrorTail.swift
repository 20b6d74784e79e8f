// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumShared

/// The end of a child process's stderr, kept to quote when the process dies (a speech worker).
///
/// Reads `descriptor` on a thread of its own until end of file, keeping the last 2,000 characters.
/// Any thread may ask for the last lines.
final class StandardErrorTail: Sendable {
    private let text = Locked<String>("")
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading `descriptor` (the read end of the child's stderr pipe) on a thread named `threadName`.
    init(descriptor: Int32, threadName: String) {
        let text = text, ended = ended
        BlockingWork.startThread(named: threadName) {
            var bytes = [UInt8](repeating: 0, count: 4096)
            while case let count = read(descriptor, &bytes, bytes.count), count != 0 {
                if count < 0 { if errno == EINTR { continue } else { break } }
                let chunk = String(decoding: bytes[0..<count], as: UTF8.self)
                text.withLock { $0 = String(($0 + chunk).suffix(2000)) }
            }
            ended.signal()
        }
    }

    /// Waits up to `timeout` seconds for the end of the stream (the process's last words).
    func waitForEnd(timeout: Double) {
        _ = ended.wait(timeout: .now() + timeout)
        ended.signal()
    }

    /// The last three lines, joined by " | "; empty when nothing was written.
    var lastLines: String {
        text.withLock { $0 }.split(separator: "\n").suffix(3).joined(separator: " | ")
    }
}
