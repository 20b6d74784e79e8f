// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Utterances handed to the engine ahead of the one the render thread encodes, their results kept until it
/// takes them in order: the engine's workers synthesize in parallel while the render thread encodes.
///
/// An utterance in the cache is not synthesized: its audio is read from the cache when it is requested.
/// `request` and `take` run on the render thread (which blocks in `take` until the result is there); the
/// engine's completions run on its threads and only store the result and wake the render thread.
final class SynthesisWindow: @unchecked Sendable {
    enum Outcome {
        /// Read from the cache.
        case cached(SynthesizedUtterance)
        /// Synthesized now, with its cache key (stored once taken).
        case synthesized(SynthesizedUtterance, UtteranceAudioCache.Key)
        case failed(TTSError)
    }

    private let engine: any TTSEngine
    private let cache: UtteranceAudioCache?
    private let engineIdentity: String
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var results: [Int: Outcome] = [:]
    private let cancellation = TTSCancellation()

    init(engine: any TTSEngine, cache: UtteranceAudioCache?, engineIdentity: String) {
        self.engine = engine
        self.cache = cache
        self.engineIdentity = engineIdentity
    }

    /// Starts utterance `index` (`request`): read from the cache, or handed to the engine. Render thread.
    func request(_ index: Int, _ request: TTSUtterance, voice: TTSVoice) {
        let key = UtteranceAudioCache.Key(request, engine: engineIdentity)
        if let cached = cache?.load(key, text: request.text, voice: voice) {
            store(.cached(cached), at: index)
            return
        }
        engine.synthesize(request, cancellation: cancellation, onChunk: nil) { [self] result in
            switch result {
            case .success(let utterance): store(.synthesized(utterance, key), at: index)
            case .failure(let error): store(.failed(error), at: index)
            }
        }
    }

    /// Waits for utterance `index`'s outcome and forgets it. Render thread (blocks it).
    func take(_ index: Int) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results.removeValue(forKey: index)!
    }

    /// Cancels what the engine has not synthesized yet (a failed render).
    func cancel() {
        cancellation.cancel()
    }

    private func store(_ outcome: Outcome, at index: Int) {
        condition.lock()
        results[index] = outcome
        condition.broadcast()
        condition.unlock()
    }
}
