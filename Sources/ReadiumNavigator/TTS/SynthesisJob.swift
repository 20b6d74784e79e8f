import Dispatch
import ReadiumShared

/// One utterance being synthesized on the engine's thread, and its result once done.
///
/// Started by `UtteranceRenderSource`; `wait()` blocks the render thread until the PCM is ready
/// (usually it already is: utterances are synthesized ahead of the one playing).
final class SynthesisJob: Sendable {
    let utterance: SpeechUtterance
    let cancellation = TTSCancellation()
    private let result = Locked<Result<SynthesizedUtterance, TTSError>?>(nil)
    private let samplesDropped = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(utterance: SpeechUtterance) {
        self.utterance = utterance
    }

    /// Called once, on the engine's thread.
    func complete(_ outcome: Result<SynthesizedUtterance, TTSError>) {
        result.withLock { $0 = outcome }
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
