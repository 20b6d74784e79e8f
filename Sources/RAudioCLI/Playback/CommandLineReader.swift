// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import NIOCore
import RAudioPlayer
import ReadiumShared

/// Reads stdin line by line on a thread of its own and hands the lines out as an `AsyncStream`.
///
/// Blocking `read(2)` never runs on Swift's cooperative pool. The stream finishes at EOF; EOF alone
/// never stops playback. Lines are split as a unix-socket client's are (`CommandLineSplitter`, SwiftNIO's
/// line decoder): longer than 64 KiB, they are cut there and still delivered, so the parser refuses them
/// with `command-too-long` instead of the reader buffering without bound.
///
/// No line is ever dropped, and memory stays bounded under a flood: at most `maximumPendingLines`
/// lines are handed out and not yet handled; then the reading thread blocks (and the writer with it,
/// through the pipe) until the session calls `lineHandled()`.
final class CommandLineReader: Sendable {
    static let maximumPendingLines = 256

    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    /// Created at 0 and signalled up: libdispatch traps when a semaphore is freed below its initial value.
    private let slots = DispatchSemaphore(value: 0)

    init() {
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        for _ in 0..<Self.maximumPendingLines { slots.signal() }
    }

    /// Frees the slot of one line taken from `lines` (call once per line, after handling it).
    func lineHandled() {
        slots.signal()
    }

    /// Starts the reading thread. Call once.
    func start() {
        let continuation = continuation
        let slots = slots
        BlockingWork.startThread(named: "raudio.stdin") {
            var lines = CommandLineSplitter()
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deliver = { (line: String) in
                slots.wait()
                continuation.yield(line)
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                lines.split(ByteBuffer(bytes: buffer[0..<count]), into: deliver)
            }
            lines.finish(into: deliver)
            continuation.finish()
        }
    }
}
