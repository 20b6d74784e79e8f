// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// Takes over stderr while the terminal player draws, so that messages (raudio's own and those of the
/// C libraries) do not scribble over the display: each line goes to `onLine` instead, on a thread of
/// its own ("raudio.stderr"), and `stop()` puts stderr back and returns every line, to be printed
/// once the terminal is restored (nothing is lost).
final class StderrCapture: Sendable {
    private let savedDescriptor: Int32
    private let writeEnd: Int32
    private let lines = Locked<[String]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// Redirects stderr into a pipe; nil when the pipe cannot be made (stderr is then left alone).
    init?(onLine: @escaping @Sendable (String) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(ends[1], STDERR_FILENO) >= 0 else {
            close(ends[0]); close(ends[1])
            if saved >= 0 { close(saved) }
            return nil
        }
        savedDescriptor = saved
        writeEnd = ends[1]
        let readEnd = ends[0]
        let lines = lines
        let finished = finished
        BlockingWork.startThread(named: "raudio.stderr") {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lines.withLock { $0.append(line) }
                    onLine(line)
                }
            }
            if !pending.isEmpty { lines.withLock { $0.append(String(decoding: pending, as: UTF8.self)) } }
            close(readEnd)
            finished.signal()
        }
    }

    /// Puts stderr back and returns what was written to it meanwhile.
    func stop() -> [String] {
        dup2(savedDescriptor, STDERR_FILENO)
        close(savedDescriptor)
        close(writeEnd)
        _ = finished.wait(timeout: .now() + 1)
        return lines.withLock { $0 }
    }
}
