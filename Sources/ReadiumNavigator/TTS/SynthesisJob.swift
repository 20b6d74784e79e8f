// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import ReadiumShared

/// One utterance being synthesized on the engine's thread, and its result once done.
///
/// Started by `UtteranceRenderSource`; `wait()` blocks the render thread until the PCM is ready
/// (usually it already is: utterances are synthesized ahead of the one playing).
final class SynthesisJob: Sendable {
    let utterance: SpeechUtterance
    /// Where in `utterance.text` synthesis starts (a word resumed after a settings change), nil: its
    /// start. The result's text is still the whole utterance's, its word ranges moved to match.
    let textStart: String.Index?
    let cancellation = TTSCancellation()
    /// The outcome once synthesis ended, and whether `dropSamples()` has taken its PCM since.
    private let state = Locked<(outcome: Result<SynthesizedUtterance, TTSError>?, isSpent: Bool)>((nil, false))
    private let done = DispatchSemaphore(value: 0)

    init(utterance: SpeechUtterance, textStart: String.Index? = nil) {
        self.utterance = utterance
        self.textStart = textStart.flatMap { $0 > utterance.text.startIndex && $0 < utterance.text.endIndex ? $0 : nil }
    }

    /// The text to synthesize: the utterance's, from `textStart`.
    var spokenText: String { textStart.map { String(utterance.text[$0...]) } ?? utterance.text }

    /// Called once, on the engine's thread, with the outcome of synthesizing `spokenText`.
    func complete(_ outcome: Result<SynthesizedUtterance, TTSError>) {
        let placed = textStart.map { start in outcome.map { $0.placed(in: utterance.text, from: start) } } ?? outcome
        state.withLock { $0.outcome = placed }
        done.signal()
    }

    /// The result, nil while synthesis runs.
    var outcome: Result<SynthesizedUtterance, TTSError>? { state.withLock { $0.outcome } }

    /// Lets go of the PCM once its decoder has been opened (the decoder shares the samples while
    /// it plays); the text, voice and word boundaries stay for late position reports.
    func dropSamples() {
        state.withLock { state in
            guard case .success(let synthesized)? = state.outcome else { return }
            state = (.success(synthesized.droppingSamples()), true)
        }
    }

    /// True once `dropSamples()` took the PCM: opening the utterance again needs a new job.
    var isSpent: Bool { state.withLock { $0.isSpent } }

    /// Blocks until the result is there. Render thread only (never the cooperative pool).
    func wait() -> Result<SynthesizedUtterance, TTSError> {
        if let outcome { return outcome }
        done.wait()
        done.signal()
        return outcome ?? .failure(TTSError(.cancelled, message: "synthesis was abandoned"))
    }
}
