// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Signals and a reader that goes away, during `raudio play` and `raudio speak` (real outputs, paced).
@Suite(.serialized) struct SignalTests {
    static let commands: [[String]] = [
        ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime"],
        ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime"],
    ]

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP], commands)
    func signalStopsCleanlyWithAFinalStoppedStateAndExitZero(signal: Int32, arguments: [String]) throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable, arguments)
        // Wait until it really plays (a position or an utterance was heard), then interrupt it.
        let playing = running.waitForLine(timeout: 60) { $0.contains("\"type\":\"position\"") || $0.contains("\"type\":\"utterance\"") }
        #expect(playing, "\(running.standardError)")
        running.signal(signal)
        #expect(running.finish(timeout: 30), "raudio did not end after signal \(signal)")
        #expect(running.process.terminationReason == .exit && running.process.terminationStatus == 0, "\(running.standardError)")
        let last = try PlayCommandTests.object(try #require(running.outputLines.last))
        #expect(last["type"] == "state" && last["state"] == "stopped")
        #expect(last["locator"]?.objectValue?["href"]?.stringValue?.isEmpty == false)
        #expect(!running.standardError.contains("Fatal error"))
    }

    @Test func closedStdoutDuringSpeakEndsQuietlyWithExitZero() throws {
        let command = "RAUDIO_NO_STATE=1 '\(ProcessRunner.raudioExecutable.path)' speak '\(SpeakCommandTests.sampleEPUB)' --output null | head -n 3 >/dev/null"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "\(command); echo \"status=${PIPESTATUS[0]}\" >&2"], timeout: 60)
        #expect(!result.timedOut)
        #expect(result.standardError.contains("status=0"), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"))
    }
}
