// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// A `TTSEngine` that forwards to a real one and keeps, in order, the PCM of every utterance it
/// synthesized: the "utterances' own PCM" a render is compared with (`speak-gaps`).
///
/// The wrapped engine completes utterances one at a time, in the order asked (eSpeak NG has one
/// thread), so the recorded order is the synthesizer's item order when nothing is cancelled. The PCM
/// is recorded before the completion is forwarded; chunks are forwarded as they come, so the renderer
/// may play an utterance before it is recorded (`GapComparingSink` waits for it).
final class RecordingTTSEngine: TTSEngine {
    private let engine: any TTSEngine
    private let recorded = Locked<[SynthesizedUtterance]>([])
    private let cancelledCount = Locked(0)

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
        engine.synthesize(utterance, cancellation: cancellation, onChunk: onChunk) { [self] result in
            switch result {
            case .success(let synthesized): self.recorded.withLock { $0.append(synthesized) }
            case .failure: self.cancelledCount.withLock { $0 += 1 }
            }
            completion(result)
        }
    }

    /// The `index`th utterance synthesized, nil when not (yet) synthesized.
    func utterance(at index: Int) -> SynthesizedUtterance? {
        recorded.withLock { index < $0.count ? $0[index] : nil }
    }

    /// Utterances synthesized so far.
    var count: Int { recorded.withLock { $0.count } }

    /// Syntheses that failed or were cancelled (a comparison is only exact when none was).
    var failures: Int { cancelledCount.withLock { $0 } }
}
