// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// Hands caught signals to Swift code: a `sigaction` handler writes the signal's number to a
/// self-pipe (async-signal-safe), and a thread of its own ("raudio.signals") reads it and calls the
/// closure given for that signal. One pipe and one thread for the process, whoever relays what
/// (`SignalWatcher`'s stop signals, `TerminalSignals`' job-control and window signals).
///
/// The handlers stay installed for the rest of the process, so a late signal during shutdown cannot
/// take its default action; the closures run one at a time, in the order the signals came.
enum SignalRelay {
    /// Installs the handler for each of `numbers` and calls `receive` with each one caught, on the
    /// relay's thread. A later call for the same signal replaces its closure.
    static func relay(_ numbers: [Int32], to receive: @escaping @Sendable (Int32) -> Void) {
        _ = readEnd  // the pipe and the thread, made once
        receivers.withLock { receivers in
            for number in numbers { receivers[number] = receive }
        }
        for number in numbers { installHandler(number) }
    }

    /// Installs (again) the relay's handler for `number`, after its default action was used once.
    static func installHandler(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = raudioSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    private static let receivers = Locked<[Int32: @Sendable (Int32) -> Void]>([:])

    /// The pipe's read end, with the thread that reads it started.
    private static let readEnd: Int32 = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("raudio: pipe() failed for the signal relay: errno \(errno)") }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        BlockingWork.startThread(named: "raudio.signals") {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let number = Int32(byte)
                receivers.withLock { $0[number] }?(number)
            }
        }
        return readEnd
    }()
}

/// Written once (before any handler is installed), read by the signal handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The `sigaction` handler: only async-signal-safe calls (`write`), errno preserved.
private func raudioSignalHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
