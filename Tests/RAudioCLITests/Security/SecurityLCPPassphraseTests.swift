// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// An LCP passphrase is never printed, put in an event or stored: only its SHA-256 reaches the state file.
@Suite struct SecurityLCPPassphraseTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func thePassphraseNeverLeavesTheProcess() throws {
        let folder = try TemporaryDirectory()
        let state = folder.path("state")
        let passphrase = "mmenu"
        let file = try LCPFixtures.passphraseFile(passphrase, in: folder)
        let book = try LCPFixtures.vector("audiotest.lcpa")
        let wrongFile = try LCPFixtures.passphraseFile("Correct-Horse-Battery", in: folder, name: "wrong")
        let wrong = try ProcessRunner.raudio(["play", book, "--passphrase-file", wrongFile, "--output", "null"], environment: ["RAUDIO_STATE_DIR": state])
        #expect(wrong.status == 65)
        #expect(!wrong.standardOutput.contains("Correct-Horse") && !wrong.standardError.contains("Correct-Horse"))
        let played = try ProcessRunner.raudio(
            ["play", book, "--passphrase-file", file, "--output", "null", "--duration", "1"], environment: ["RAUDIO_STATE_DIR": state])
        #expect(played.status == 0, "\(played.standardError)")
        let info = try ProcessRunner.raudio(["lcp", "info", book, "--passphrase-file", file], environment: ["RAUDIO_STATE_DIR": state])
        for output in [played.standardOutput, played.standardError, info.standardOutput, info.standardError] {
            // The hint of this vector is its passphrase: only `"hint":"mmenu"` may show it, nothing else.
            #expect(!output.replacingOccurrences(of: "\"hint\":\"mmenu\"", with: "").replacingOccurrences(of: "hint: mmenu", with: "")
                .contains(passphrase))
        }
        var stored = Data()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] {
            stored += (try? Data(contentsOf: URL(fileURLWithPath: state).appendingPathComponent(name))) ?? Data()
        }
        #expect(!stored.isEmpty)
        #expect(stored.range(of: Data("Correct-Horse".utf8)) == nil)
        #expect(stored.range(of: Data(passphrase.utf8)) == nil)
        #expect(stored.range(of: Data("9c073f48821c8a2212ec63414d5bd7324c7706ff7b57cb9822156a7200199aeb".utf8)) != nil
            || stored.range(of: Data("9c073f48".utf8)) != nil)
    }
}
