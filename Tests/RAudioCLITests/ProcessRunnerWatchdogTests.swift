// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The tests' watchdog: a program that hangs is killed with every process it started, and the test's
/// message says what each was doing.
@Suite struct ProcessRunnerWatchdogTests {
    @Test func aHangingShellIsKilledWithItsChildrenAndDescribed() throws {
        let marker = "raudio-watchdog-\(UUID().uuidString.prefix(8))"
        let started = Date()
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                           ["-c", "exec 3>/dev/null; sleep 1000 & sh -c 'sleep 1001; : \(marker)' & wait"], timeout: 1)
        #expect(result.timedOut)
        #expect(Date().timeIntervalSince(started) < 10, "the watchdog waited \(Date().timeIntervalSince(started)) s")
        #expect(result.standardError.contains("watchdog: still running after 1 s"), "\(result.standardError)")
        #expect(result.standardError.contains("sleep 1000"), "\(result.standardError)")
        #expect(result.standardError.contains("sleep 1001"), "\(result.standardError)")
        // None of the tree is left running.
        let ps = try ProcessRunner.run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "args"])
        #expect(!ps.standardOutput.contains(marker), "\(ps.standardOutput)")
        #expect(!ps.standardOutput.split(separator: "\n").contains { $0.hasPrefix("sleep 1000") || $0.hasPrefix("sleep 1001") }, "\(ps.standardOutput)")
    }
}
