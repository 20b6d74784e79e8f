// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The job-control and window signals of the terminal player: SIGWINCH (the window was resized),
/// SIGTSTP (ctrl-Z) and SIGCONT (`fg`), handed to closures on the `SignalRelay`'s thread.
///
/// On SIGTSTP the terminal is put back before the process stops itself with the default action, so
/// the shell gets a sane terminal; on SIGCONT it is taken again and redrawn.
enum TerminalSignals {
    /// Installs the handlers (again: `uninstall()` gave SIGTSTP back its default action) and the closures.
    static func install(resized: @escaping @Sendable () -> Void, suspend: @escaping @Sendable () -> Void,
                        resumed: @escaping @Sendable () -> Void) {
        handlers.withLock { $0 = Handlers(resized: resized, suspend: suspend, resumed: resumed) }
        SignalRelay.relay([SIGWINCH, SIGTSTP, SIGCONT]) { number in
            let current = handlers.withLock { $0 }
            switch number {
            case SIGWINCH: current?.resized()
            case SIGTSTP:
                current?.suspend()
                // Stop for real now that the terminal is back to normal; returns after SIGCONT.
                // Sent to the process, not raised on this thread: threads started from Swift's
                // pool block signals, and a stop raised here would stay pending.
                signal(SIGTSTP, SIG_DFL)
                kill(getpid(), SIGTSTP)
                SignalRelay.installHandler(SIGTSTP)
            case SIGCONT: current?.resumed()
            default: break
            }
        }
    }

    /// Stops calling the closures (the player is gone); the handlers stay, doing nothing harmful.
    static func uninstall() {
        handlers.withLock { $0 = nil }
        signal(SIGTSTP, SIG_DFL)
    }

    private struct Handlers: Sendable {
        var resized: @Sendable () -> Void
        var suspend: @Sendable () -> Void
        var resumed: @Sendable () -> Void
    }

    private static let handlers = Locked<Handlers?>(nil)
}
