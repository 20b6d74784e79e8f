// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// One utterance being synthesized on the engine's thread, its PCM as it arrives, and its result
/// once done.
///
/// Started by `UtteranceRenderSource`. The engine's thread calls `receive(_:)` with each chunk and
/// `complete(_:)` once; the render thread either waits for the whole utterance (`wait()`, usually
/// already done: utterances are synthesized ahead of the one playing) or plays the chunks as they
/// arrive through a `SynthesisStreamDecoder` (SynthesisJob+Streaming).
final class SynthesisJob: @unchecked Sendable {
    let utterance: SpeechUtterance
    /// Where in `utterance.text` synthesis starts (a word resumed after a settings change), nil: its
    /// start. The result's text is still the whole utterance's, its word ranges moved to match.
    let textStart: String.Index?
    let cancellation = TTSCancellation()
    /// Guards the state below; broadcast when a chunk arrives and when synthesis ends.
    let condition = NSCondition()
    /// The outcome once synthesis ended. Guarded by `condition`.
    private(set) var finalOutcome: Result<SynthesizedUtterance, TTSError>?
    /// `dropSamples()` took (or will take, at the end) the PCM: opening it again needs a new job.
    private var spent = false
    /// The PCM delivered so far, for decoders that play it before the end. Guarded by `condition`.
    var streamed = StreamedPCM()
    /// Run once synthesis ends (`whenDone`).
    private var doneActions: [@Sendable () -> Void] = []

    init(utterance: SpeechUtterance, textStart: String.Index? = nil) {
        self.utterance = utterance
        self.textStart = textStart.flatMap { $0 > utterance.text.startIndex && $0 < utterance.text.endIndex ? $0 : nil }
    }

    /// The text to synthesize: the utterance's, from `textStart`.
    var spokenText: String { textStart.map { String(utterance.text[$0...]) } ?? utterance.text }
    /// Where `spokenText` starts in the utterance's text, in UTF-8 bytes.
    var spokenTextOffset: Int { textStart.map { utterance.text.utf8.distance(from: utterance.text.startIndex, to: $0) } ?? 0 }

    /// Called on the engine's thread with each piece of PCM as it is produced.
    func receive(_ chunk: TTSAudioChunk) {
        condition.lock()
        let added = finalOutcome == nil && streamed.append(chunk, pool: .speech)
        if added { condition.broadcast() }
        condition.unlock()
    }

    /// Called once, on the engine's thread, with the outcome of synthesizing `spokenText`.
    func complete(_ outcome: Result<SynthesizedUtterance, TTSError>) {
        let placed = textStart.map { start in outcome.map { $0.placed(in: utterance.text, from: start) } } ?? outcome
        condition.lock()
        finalOutcome = spent ? placed.map { $0.droppingSamples() } : placed
        let released = streamed.finish(with: placed)
        let actions = doneActions
        doneActions = []
        condition.broadcast()
        condition.unlock()
        PCMSampleBufferPool.speech.recycle(released)
        for action in actions { action() }
    }

    /// The result, nil while synthesis runs.
    var outcome: Result<SynthesizedUtterance, TTSError>? {
        condition.lock()
        defer { condition.unlock() }
        return finalOutcome
    }

    /// Whether synthesis ended (successfully or not).
    var isDone: Bool { outcome != nil }

    /// Lets go of the PCM once its decoder has been opened (the decoder shares the samples while
    /// it plays); the text, voice and word boundaries stay for late position reports. On a job
    /// still synthesizing, the PCM is let go of when it ends (a decoder streaming it keeps its own).
    func dropSamples() {
        condition.lock()
        defer { condition.unlock() }
        if case .success(let synthesized)? = finalOutcome {
            finalOutcome = .success(synthesized.droppingSamples())
        } else if finalOutcome != nil {
            return
        }
        spent = true
    }

    /// True once `dropSamples()` took the PCM: opening the utterance again needs a new job.
    var isSpent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return spent
    }

    /// Blocks until the result is there. Render thread only (never the cooperative pool).
    func wait() -> Result<SynthesizedUtterance, TTSError> {
        condition.lock()
        defer { condition.unlock() }
        while finalOutcome == nil { condition.wait() }
        return finalOutcome!
    }

    /// Runs `action` once synthesis has ended: at once if it has, else on the engine's thread when
    /// it does (return quickly).
    func whenDone(_ action: @escaping @Sendable () -> Void) {
        condition.lock()
        guard finalOutcome == nil else {
            condition.unlock()
            return action()
        }
        doneActions.append(action)
        condition.unlock()
    }

    /// Suspends the calling task (no thread is blocked) until synthesis has ended.
    func done() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenDone { continuation.resume() }
        }
    }
}
