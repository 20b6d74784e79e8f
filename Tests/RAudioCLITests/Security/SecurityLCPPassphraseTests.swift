// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// An LCP passphrase is never printed, put in an event or stored: only its SHA-256 reaches the state file.
@Suite struct SecurityLCPPassphraseTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func thePassphraseNeverLeavesTheProcess() throws {
        let folder = try TemporaryDirectory()
        var environment = try LCPFixtures.mobyDickEnvironment()
        environment["RAUDIO_STATE_DIR"] = folder.path("state")
        // The Moby-Dick vector: its passphrase appears nowhere in its licence (hint, user), unlike audiotest's.
        let passphrase = "White whales are huge!"
        let file = try LCPFixtures.passphraseFile(passphrase, in: folder)
        let book = try LCPFixtures.vector("moby-dick-20120118-lcp.epub")
        let wrong = "Correct-Horse-Battery"
        let refused = try ProcessRunner.raudio(
            ["speak", book, "--passphrase-file", try LCPFixtures.passphraseFile(wrong, in: folder, name: "wrong"), "--output", "null"],
            environment: environment)
        #expect(refused.status == 65)
        let spoken = try ProcessRunner.raudio(
            ["speak", book, "--passphrase-file", file, "--output", "null", "--duration", "1"], environment: environment, timeout: 120)
        #expect(spoken.status == 0, "\(spoken.standardError)")
        let info = try ProcessRunner.raudio(["lcp", "info", book, "--passphrase-file", file], environment: environment)
        #expect(info.status == 0, "\(info.standardError)")
        for output in [refused, spoken, info].flatMap({ [$0.standardOutput, $0.standardError] }) {
            #expect(!output.contains("White whales") && !output.contains("Correct-Horse"))
        }
        var stored = Data()
        let state = folder.url.appendingPathComponent("state")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [] {
            stored += (try? Data(contentsOf: state.appendingPathComponent(name))) ?? Data()
        }
        #expect(!stored.isEmpty)
        #expect(stored.range(of: Data("White whales".utf8)) == nil && stored.range(of: Data("Correct-Horse".utf8)) == nil)
        // Its SHA-256 is what was kept.
        #expect(stored.range(of: Data("b5cd1260cd3dbdd29a57873ffd2dddd64c79c40e9eaf3425423d6aaf19d31385".utf8)) != nil)
    }
}
