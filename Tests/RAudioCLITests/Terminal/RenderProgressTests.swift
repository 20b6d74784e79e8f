// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing
@testable import RAudioCLI

/// The render's last line (issue 36: the bar stayed at "96 %, 0:00 left"): what was written, its length and
/// how long it took, the length read from the WAV file itself.
@Suite struct RenderProgressTests {
    @Test func theLastLineSaysWhatWasWrittenItsLengthAndTheTimeItTook() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-render-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "wav:\(wav.path)", "--no-state"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        // The sample book is 61.7 s long: the file holds all of it.
        let seconds = try #require(RenderProgress.wavSeconds(path: wav.path))
        #expect(abs(seconds - 61.7) < 0.5, "\(seconds)")
        #expect(RenderProgress.summary(path: wav.path, wallSeconds: 125) == "wrote \(wav.path): 1:01 of audio in 2:05")
        #expect(RenderProgress.summary(path: "/nonexistent.wav", wallSeconds: 3) == "wrote /nonexistent.wav in 0:03")
    }
}
