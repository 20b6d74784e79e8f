// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The terminal's settings while the player runs, and the one place that puts them back.
///
/// `enter()` turns off line buffering and echo (keys arrive one by one; ctrl-C, ctrl-Z and ctrl-\
/// still send their signals), switches to the alternate screen and hides the cursor; `leave()` undoes
/// all of it, and runs at exit too (`atexit`), so a quit, the end, an error or a signal all give the
/// shell back its terminal. Safe to call `leave()` twice. Process-wide: there is one terminal.
enum TerminalMode {
    /// Whether the terminal understands cursor movement (not `TERM=dumb`): the player then draws a
    /// screen; otherwise it prints a line for each change.
    static var canMoveCursor: Bool {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }

    /// Columns and rows of the terminal on `descriptor` (80x24 when it cannot say).
    static func size(of descriptor: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int) {
        var window = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    /// Saves the settings, then raw input and (where the terminal can) the alternate screen.
    static func enter() {
        state.withLock { state in
            if state.saved == nil {
                var original = termios()
                guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
                state.saved = original
                if !state.exitHookInstalled {
                    state.exitHookInstalled = true
                    atexit { TerminalMode.leave() }
                }
            }
            guard var raw = state.saved else { return }
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutablePointer(to: &raw.c_cc) { pointer in
                pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
            }
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
            state.isRaw = true
            FatalSignals.rememberTerminal(state.saved, restoresScreen: canMoveCursor)
            if canMoveCursor { writeToTerminal("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J") }
        }
    }

    /// Puts back the settings `enter()` saved: the normal screen, the cursor, line input and echo.
    static func leave() {
        state.withLock { state in
            guard state.isRaw, var saved = state.saved else { return }
            state.isRaw = false
            FatalSignals.rememberTerminal(nil, restoresScreen: false)
            if canMoveCursor { writeToTerminal("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l") }
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        }
    }

    /// Writes `text` to stdout, whole; errors are ignored: the terminal is gone.
    static func writeToTerminal(_ text: String) {
        _ = StandardStreams.write(text, to: STDOUT_FILENO)
    }

    private struct State {
        var saved: termios?
        var isRaw = false
        var exitHookInstalled = false
    }

    private static let state = Locked(State())
}
