import Foundation
import ReadiumShared

/// The job-control and window signals of the terminal player: SIGWINCH (the window was resized),
/// SIGTSTP (ctrl-Z) and SIGCONT (`fg`), handed to closures on a thread of their own
/// ("raudio.terminal-signals") through a self-pipe, as `SignalWatcher` does for the stop signals.
///
/// On SIGTSTP the terminal is put back before the process stops itself with the default action, so
/// the shell gets a sane terminal; on SIGCONT it is taken again and redrawn.
enum TerminalSignals {
    /// Installs the handlers once; later calls replace the closures.
    static func install(resized: @escaping @Sendable () -> Void, suspend: @escaping @Sendable () -> Void,
                        resumed: @escaping @Sendable () -> Void) {
        handlers.withLock { $0 = Handlers(resized: resized, suspend: suspend, resumed: resumed) }
        let isFirst = installed.withLock { wasInstalled in
            defer { wasInstalled = true }
            return !wasInstalled
        }
        guard isFirst else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        terminalSignalPipeWriteEnd = ends[1]
        for number in [SIGWINCH, SIGTSTP, SIGCONT] { installHandler(number) }
        let readEnd = ends[0]
        let thread = Thread {
            Thread.current.name = "raudio.terminal-signals"
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let current = handlers.withLock { $0 }
                switch Int32(byte) {
                case SIGWINCH: current?.resized()
                case SIGTSTP:
                    current?.suspend()
                    // Stop for real now that the terminal is back to normal; returns after SIGCONT.
                    // Sent to the process, not raised on this thread: threads started from Swift's
                    // pool block signals, and a stop raised here would stay pending.
                    signal(SIGTSTP, SIG_DFL)
                    kill(getpid(), SIGTSTP)
                    installHandler(SIGTSTP)
                case SIGCONT: current?.resumed()
                default: break
                }
            }
        }
        thread.start()
    }

    /// Stops calling the closures (the player is gone); the handlers stay, doing nothing harmful.
    static func uninstall() {
        handlers.withLock { $0 = nil }
        signal(SIGTSTP, SIG_DFL)
    }

    private static func installHandler(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = raudioTerminalSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    private struct Handlers: Sendable {
        var resized: @Sendable () -> Void
        var suspend: @Sendable () -> Void
        var resumed: @Sendable () -> Void
    }

    private static let handlers = Locked<Handlers?>(nil)
    private static let installed = Locked(false)
}

/// Written once before any handler is installed, read by the handler.
nonisolated(unsafe) private var terminalSignalPipeWriteEnd: Int32 = -1

/// Only async-signal-safe calls (`write`), errno preserved.
private func raudioTerminalSignalHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(terminalSignalPipeWriteEnd, &byte, 1)
    errno = saved
}
