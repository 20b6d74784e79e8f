// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Utterances handed to the engine ahead of the one the render thread encodes, their results kept until it
/// takes them in order: the engine's workers synthesize in parallel while the render thread encodes.
///
/// Utterances are requested by blocks: a block whose every utterance is in the cache is read from it, any
/// other is synthesized whole, from a fresh eSpeak NG process (see `requestBlock`).
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

    /// One utterance to speak: its index in the book, the request, and the voice it names (or the engine's
    /// for its language).
    struct Item {
        var index: Int
        var request: TTSUtterance
        var voice: TTSVoice
    }

    /// Starts block `number` of utterances (`items`, in order): read from the cache when all of them are
    /// there, else all synthesized in order by one eSpeak NG worker process started for the block (worker
    /// `number` modulo their count), so that each utterance's samples are the same whatever was spoken
    /// before the block (eSpeak NG carries state from one utterance to the next). Other engines synthesize
    /// each item in turn. Render thread.
    func requestBlock(_ items: [Item], number: Int) {
        let keys = Self.keys(of: items, engineIdentity: engineIdentity)
        if let cache {
            let cached = zip(items, keys).map { cache.load($1, text: $0.request.text, voice: $0.voice) }
            if cached.allSatisfy({ $0 != nil }) {
                for (item, audio) in zip(items, cached) { store(.cached(audio!), at: item.index) }
                return
            }
        }
        for (offset, (item, key)) in zip(items, keys).enumerated() {
            let completion: @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void = { [self] result in
                switch result {
                case .success(let utterance): store(.synthesized(utterance, key), at: item.index)
                case .failure(let error): store(.failed(error), at: item.index)
                }
            }
            if let pool = engine as? ESpeakWorkerPool {
                pool.synthesize(item.request, worker: number, freshProcess: offset == 0, cancellation: cancellation, completion: completion)
            } else {
                engine.synthesize(item.request, cancellation: cancellation, onChunk: nil, completion: completion)
            }
        }
    }

    /// The cache keys of a block's items. Each names the one before in the block: the same sentence elsewhere
    /// in a block sounds a little different.
    static func keys(of items: [Item], engineIdentity: String) -> [UtteranceAudioCache.Key] {
        var keys: [UtteranceAudioCache.Key] = []
        for item in items { keys.append(UtteranceAudioCache.Key(item.request, engine: engineIdentity, after: keys.last)) }
        return keys
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
