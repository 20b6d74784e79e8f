// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A text-to-speech engine: lists voices and turns one utterance into PCM and word boundaries.
///
/// In the spirit of Readium's `TTSEngine`; `PublicationSpeechSynthesizer` depends on this protocol,
/// RAudioEngine's `ESpeakEngine` implements it. Implementations are thread-safe: any thread or task
/// may call them; synthesis itself runs on a thread the engine owns, never on Swift's cooperative pool.
public protocol TTSEngine: AnyObject, Sendable {
    /// Every voice the engine can speak with.
    var availableVoices: [TTSVoice] { get }

    /// The voice with `identifier`, or nil.
    func voice(withIdentifier identifier: String) -> TTSVoice?

    /// The best voice for `language`: its own, a base language's, or the default voice with a warning.
    func voice(forLanguage language: Language) -> TTSVoiceChoice

    /// Starts synthesizing `utterance` and returns at once.
    ///
    /// `onChunk` (optional) receives the PCM as it is produced; `completion` receives the whole
    /// utterance, or `TTSError` (`.cancelled` once `cancellation` is set, `.ttsUnknownVoice`,
    /// `.synthesisFailed`). Both run on the engine's thread: return quickly and never block on the engine.
    func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    )

    /// Gets ready to speak with `voiceOrLanguage` (loads the voice) without waiting, so that the first
    /// utterance does not pay for it; the default does nothing. Any thread; returns at once.
    func prepare(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage)
}

extension TTSEngine {
    public func prepare(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage) {}

    /// Synthesizes `utterance` completely and returns its PCM and word boundaries.
    ///
    /// Suspends the calling task (no thread is blocked) while the engine's thread works. Cancelling the
    /// task cancels the synthesis, which then throws `.cancelled`.
    public func synthesize(_ utterance: TTSUtterance, cancellation: TTSCancellation = TTSCancellation()) async throws(TTSError) -> SynthesizedUtterance {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<SynthesizedUtterance, TTSError>, Never>) in
                synthesize(utterance, cancellation: cancellation, onChunk: nil) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
