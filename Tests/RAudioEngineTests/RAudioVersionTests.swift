// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import Testing

/// The version is written once (`RAudioVersion.current`); the command line and the changelog follow it.
struct RAudioVersionTests {
    @Test func versionCommandAndFlagPrintTheOneVersion() throws {
        let command = try ProcessRunner.raudio(["version"])
        #expect(command.status == 0, "\(command.standardError)")
        #expect(command.outputLines.first == "raudio \(RAudioVersion.current)")
        #expect(command.outputLines.last?.hasPrefix("voice-presets /") == true, "\(command.standardOutput)")
        let flag = try ProcessRunner.raudio(["--version"])
        #expect(flag.status == 0)
        #expect(flag.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == RAudioVersion.current)
    }

    @Test func newestChangelogEntryIsTheCurrentVersion() throws {
        let changelog = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" })
        #expect(newest.hasPrefix("## \(RAudioVersion.current) ("), "CHANGELOG.md's newest entry is '\(newest)', the version is \(RAudioVersion.current)")
    }

    @Test func versionIsSemantic() {
        let parts = RAudioVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(RAudioVersion.current)")
    }
}
