// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// FFmpeg's own log never reaches stderr as FFmpeg writes it (`[aac @ 0x7f…] …`): raudio's warning says in one
/// line what is not supported, and `--verbose` shows FFmpeg's lines after raudio's prefix.
@Suite struct FFmpegLogCLITests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func ffmpegsLogIsRaudiosQuietByDefaultAndShownByVerbose() throws {
        let url = try UnsupportedAAC.make()
        defer { try? FileManager.default.removeItem(at: url) }
        let name = url.lastPathComponent
        for command in [["play", url.path, "--output", "null"], ["info", url.path, "--human"]] {
            let quiet = try ProcessRunner.run(ProcessRunner.raudioExecutable, command, environment: ["RAUDIO_NO_STATE": "1"])
            #expect(!quiet.standardError.contains("@ 0x") && !quiet.standardError.contains("[aac"), "\(command[0]): \(quiet.standardError)")
            if command[0] == "play" {
                let warnings = quiet.standardError.split(separator: "\n").filter { $0.hasPrefix("raudio: warning:") }
                #expect(warnings == ["raudio: warning: \(name): FFmpeg's aac decoder cannot decode it: audio object type 8 is not implemented"],
                        "\(quiet.standardError)")
            }
            let verbose = try ProcessRunner.run(ProcessRunner.raudioExecutable, command + ["--verbose"], environment: ["RAUDIO_NO_STATE": "1"])
            #expect(verbose.standardError.contains("raudio: ffmpeg: [aac] Audio object type 8 is not implemented\n"), "\(command[0]): \(verbose.standardError)")
            #expect(!verbose.standardError.contains("@ 0x"))
        }
    }
}
