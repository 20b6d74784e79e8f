// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The README's example, as written: `echo '{"command":"pause","id":1}' | socat - UNIX-CONNECT:PATH`. socat
/// half-closes the socket when its input ends; the client is answered (hello, then the ack of its command)
/// before the connection closes (issue 36: only the hello came back, the answer was dropped).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") || Corpus.isCI, "socat is not installed (make deps)"))
struct IPCHalfCloseTests {
    @Test func aClientThatHalfClosesGetsItsAnswerThenIsClosed() throws {
        let path = IPCTests.socketPath()
        let (running, _) = try IPCTests.start(["--ipc", "unix:\(path)"])
        defer { running.process.terminate() }
        let shell = "echo '{\"command\":\"pause\",\"id\":1}' | socat - UNIX-CONNECT:\(path)"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", shell], timeout: 10)
        #expect(result.status == 0, "\(result.standardError)")
        let types = result.outputLines.compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }.map { ($0["type"]?.stringValue, $0["id"]) }
        #expect(types.first?.0 == "hello", "\(result.outputLines)")
        #expect(types.contains { $0.0 == "ack" && $0.1 == .integer(1) }, "no ack: \(result.outputLines)")
        // The session paused: the command was obeyed, not only answered.
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"state\":\"paused\"") })
    }
}
