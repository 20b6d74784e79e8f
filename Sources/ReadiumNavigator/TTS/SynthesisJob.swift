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
    private let result = Locked<Result<SynthesizedUtterance, TTSError>?>(nil)
    private let samplesDropped = Locked(false)
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
        result.withLock { $0 = placed }
        done.signal()
    }

    /// The result, nil while synthesis runs.
    var outcome: Result<SynthesizedUtterance, TTSError>? { result.withLock { $0 } }

    /// Lets go of the PCM once its decoder has been opened (the decoder shares the samples while
    /// it plays); the text, voice and word boundaries stay for late position reports.
    func dropSamples() {
        let dropped = result.withLock { outcome -> Bool in
            guard case .success(let synthesized)? = outcome else { return false }
            outcome = .success(synthesized.droppingSamples())
            return true
        }
        if dropped { samplesDropped.withLock { $0 = true } }
    }

    /// True once `dropSamples()` took the PCM: opening the utterance again needs a new job.
    var isSpent: Bool { samplesDropped.withLock { $0 } }

    /// Blocks until the result is there. Render thread only (never the cooperative pool).
    func wait() -> Result<SynthesizedUtterance, TTSError> {
        if let outcome { return outcome }
        done.wait()
        done.signal()
        return outcome ?? .failure(TTSError(.cancelled, message: "synthesis was abandoned"))
    }
}
