// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// SIGQUIT and the fatal signals (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE): the terminal is put
/// back, then the process ends.
///
/// Swift's runtime backtracer handles these signals to print a crash report; sent from outside
/// (`kill -QUIT`, ctrl-\, `kill -SEGV`), it printed "Program crashed" and then waited in `sigsuspend`
/// for ever, with the terminal player's terminal left raw, in the alternate screen, cursor hidden.
/// Here a `sigaction` handler (async-signal-safe calls only: `tcsetattr`, `write`, `sigaction`,
/// `kill`) restores the terminal, then:
/// - SIGQUIT, or any of them sent by another process: takes the default action (the process ends,
///   with a core dump where enabled), as a program without a runtime handler would;
/// - a real crash of this process (a fault, a trap, `abort()`): gives the signal back to the previous
///   handler, so the backtracer still reports it.
///
/// Installed first thing in `main`, before any other thread starts.
enum FatalSignals {
    static let numbers: [Int32] = [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE]

    /// Installs the handler for every signal of `numbers`, keeping each previous action.
    static func install() {
        for number in numbers {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = raudioFatalSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigaction(number, &action, fatalPreviousActions + Int(number))
        }
    }

    /// The terminal settings to put back if a fatal signal comes while the terminal player owns the
    /// terminal (`TerminalMode.enter`); nil once it gave the terminal back.
    static func rememberTerminal(_ saved: termios?, restoresScreen: Bool) {
        if let saved {
            fatalSavedTerminal = saved
            fatalRestoresScreen = restoresScreen ? 1 : 0
            fatalTerminalIsRaw = 1
        } else {
            fatalTerminalIsRaw = 0
        }
    }
}

/// The actions in place before `FatalSignals.install`, by signal number (allocated once, never freed:
/// the handler reads it at any time).
nonisolated(unsafe) private let fatalPreviousActions: UnsafeMutablePointer<sigaction> = {
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    actions.initialize(repeating: sigaction(), count: 65)
    return actions
}()
nonisolated(unsafe) private var fatalSavedTerminal = termios()
nonisolated(unsafe) private var fatalTerminalIsRaw: Int32 = 0
nonisolated(unsafe) private var fatalRestoresScreen: Int32 = 0

/// The `sigaction` handler: only async-signal-safe calls.
private func raudioFatalSignalHandler(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    if fatalTerminalIsRaw != 0 {
        fatalTerminalIsRaw = 0
        if fatalRestoresScreen != 0 {
            let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
            _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
        }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &fatalSavedTerminal)
    }
    let code = info?.pointee.si_code ?? 0
    let sender = info?.pointee._sifields._kill.si_pid ?? 0
    let sentFromOutside = code <= 0 && sender != getpid()
    if number == SIGQUIT || sentFromOutside {
        // Pending until this handler returns (the signal is blocked while it runs), then the default action.
        signal(number, SIG_DFL)
        kill(getpid(), number)
        return
    }
    // This process crashed: the previous handler (the backtracer) gets the signal. A fault or trap
    // happens again when the handler returns; a raised signal (abort) is raised again.
    sigaction(number, fatalPreviousActions + Int(number), nil)
    if code <= 0 { kill(getpid(), number) }
}
