// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// A `TTSEngine` that forwards to a real one and records when the first chunk of PCM came out of it
/// (seconds since boot, `CLOCK_BOOTTIME`), asking for chunks even when its caller does not.
///
/// `speak-first-buffer` reports it beside the first buffer: the first audio an engine that streams its
/// pieces (Piper) can give, whether or not the renderer plays an utterance before its whole PCM is there.
/// The chunk callback runs on the engine's thread; the recorded time is read from any thread.
final class FirstChunkTimingEngine: TTSEngine {
    private let engine: any TTSEngine
    private let firstChunk = Locked<Double?>(nil)

    init(wrapping engine: any TTSEngine) {
        self.engine = engine
    }

    /// When the first chunk came (seconds since boot), nil before.
    var firstChunkBootSeconds: Double? { firstChunk.withLock { $0 } }

    var availableVoices: [TTSVoice] { engine.availableVoices }
    func voice(withIdentifier identifier: String) -> TTSVoice? { engine.voice(withIdentifier: identifier) }
    func voice(forLanguage language: Language) -> TTSVoiceChoice { engine.voice(forLanguage: language) }

    func prepare(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage) {
        engine.prepare(voiceOrLanguage)
    }

    func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        let firstChunk = firstChunk
        engine.synthesize(utterance, cancellation: cancellation, onChunk: { chunk in
            if !chunk.samples.isEmpty {
                let now = ProcessStartTime.bootTimeNow()
                firstChunk.withLock { if $0 == nil { $0 = now } }
            }
            onChunk?(chunk)
        }, completion: completion)
    }
}
