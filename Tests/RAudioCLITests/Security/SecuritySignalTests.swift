// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// SIGQUIT and fatal signals sent from outside end the process instead of leaving it waiting in the
/// runtime's backtracer; the terminal player's terminal is put back first.
@Suite(.serialized) struct SecuritySignalTests {
    @Test(arguments: [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP])
    func aFatalSignalFromOutsideEndsTheProcess(_ number: Int32) throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris"])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") }, "\(running.standardError)")
        running.signal(number)
        #expect(running.finish(timeout: 5), "signal \(number): the process did not end:\n\(running.standardError.suffix(400))")
        #expect(running.process.terminationReason == .uncaughtSignal)
        #expect(running.process.terminationStatus == number)
    }

    @Test func ctrlBackslashInTheTerminalPlayerEndsItAndRestoresTheTerminal() throws {
        guard try TerminalPlayerTests.startable() else { return }
        let terminal = try TmuxSession()
        try terminal.run("\(TerminalPlayerTests.raudio) play \(TerminalPlayerTests.book) --output null --realtime --no-state" + TerminalPlayerTests.afterExit)
        #expect(terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") } != nil, "\(terminal.lastScreen)")
        try terminal.press("C-\\")
        TerminalPlayerTests.expectRestored(terminal, exit: 128 + SIGQUIT)
    }
}
