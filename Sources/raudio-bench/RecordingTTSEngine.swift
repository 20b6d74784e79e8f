// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// A `TTSEngine` that forwards to a real one and keeps, in order, the PCM of every utterance it
/// synthesized: the "utterances' own PCM" a render is compared with (`speak-gaps`).
///
/// The wrapped engine completes utterances one at a time, in the order asked (eSpeak NG has one
/// thread), so the recorded order is the synthesizer's item order. The PCM is recorded before the
/// completion is forwarded; chunks are forwarded as they come, so the renderer may play an utterance
/// before it is recorded (`GapComparingSink` waits for it). A synthesis that fails or is cancelled
/// (closing the synthesizer cancels those ahead, one of which may be playing from its first chunks)
/// is recorded too, as the chunks it delivered before it ended: that is what a stream of it played.
final class RecordingTTSEngine: TTSEngine {
    /// One synthesis, in completion order.
    struct Recorded: Sendable {
        /// The utterance's PCM; for a synthesis that did not complete, what its chunks delivered.
        var samples: [Float]
        /// False: the synthesis failed or was cancelled part-way (`samples` are its chunks).
        var completed: Bool
    }

    private let engine: any TTSEngine
    private let recorded = Locked<[Recorded]>([])
    private let cancelledCount = Locked(0)
    private let startedCount = Locked(0)

    init(wrapping engine: any TTSEngine) {
        self.engine = engine
    }

    var availableVoices: [TTSVoice] { engine.availableVoices }
    func voice(withIdentifier identifier: String) -> TTSVoice? { engine.voice(withIdentifier: identifier) }
    func voice(forLanguage language: Language) -> TTSVoiceChoice { engine.voice(forLanguage: language) }

    func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        startedCount.withLock { $0 += 1 }
        // The chunks laid end to end (interleaved samples), for a synthesis that ends without a result.
        let delivered = Locked<[Float]>([])
        var forwarding: (@Sendable (TTSAudioChunk) -> Void)?
        if let onChunk {
            forwarding = { chunk in
                delivered.withLock { Self.lay(chunk, into: &$0) }
                onChunk(chunk)
            }
        }
        engine.synthesize(utterance, cancellation: cancellation, onChunk: forwarding) { [self] result in
            switch result {
            case .success(let synthesized):
                self.recorded.withLock { $0.append(Recorded(samples: synthesized.samples, completed: true)) }
            case .failure:
                let samples = delivered.withLock { $0 }
                self.recorded.withLock { $0.append(Recorded(samples: samples, completed: false)) }
                self.cancelledCount.withLock { $0 += 1 }
            }
            completion(result)
        }
    }

    /// Appends the part of `chunk` past the end of `samples` (a chunk overlapping what arrived adds
    /// only its new part; one starting past the end is left out).
    private static func lay(_ chunk: TTSAudioChunk, into samples: inout [Float]) {
        let channels = max(chunk.format?.channelCount ?? 1, 1)
        let start = Int(chunk.startFrame) * channels
        guard start <= samples.count, start + chunk.samples.count > samples.count else { return }
        samples.append(contentsOf: chunk.samples[(samples.count - start)...])
    }

    /// The `index`th synthesis that ended, nil when fewer have ended (yet).
    func utterance(at index: Int) -> Recorded? {
        recorded.withLock { index < $0.count ? $0[index] : nil }
    }

    /// Waits (polling) until every synthesis asked for has ended, up to `timeout`; false on timeout.
    /// Closing the synthesizer cancels those ahead, and they end on the engine's thread after it.
    func waitForAllToEnd(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while count < startedCount.withLock({ $0 }) {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    /// Syntheses ended so far.
    var count: Int { recorded.withLock { $0.count } }

    /// Syntheses that failed or were cancelled (a comparison is only exact when none was).
    var failures: Int { cancelledCount.withLock { $0 } }
}
