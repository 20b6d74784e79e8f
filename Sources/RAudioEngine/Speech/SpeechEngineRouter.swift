// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// Two engines as one: a neural (Piper) engine for the languages its voice speaks, eSpeak NG for the rest.
///
/// Voices are the neural engine's then eSpeak NG's; an utterance for a voice goes to the engine that has
/// it, one for a language to the neural engine when its voice speaks the language's base language and to
/// eSpeak NG otherwise, so a span in another language falls back per span (its `utterance` event names
/// the eSpeak NG voice). Thread-safe like the engines it routes to.
public final class SpeechEngineRouter: TTSEngine {
    public let neural: any TTSEngine
    public let fallback: any TTSEngine

    public init(neural: any TTSEngine, fallback: any TTSEngine) {
        self.neural = neural
        self.fallback = fallback
    }

    public var availableVoices: [TTSVoice] { neural.availableVoices + fallback.availableVoices }

    public func voice(withIdentifier identifier: String) -> TTSVoice? {
        neural.voice(withIdentifier: identifier) ?? fallback.voice(withIdentifier: identifier)
    }

    public func voice(forLanguage language: Language) -> TTSVoiceChoice {
        let choice = neural.voice(forLanguage: language)
        return choice.isFallback ? fallback.voice(forLanguage: language) : choice
    }

    /// Forwards to the engine `synthesize` would route `voiceOrLanguage` to.
    public func prepare(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage) {
        switch voiceOrLanguage {
        case .voice(let voice):
            (neural.voice(withIdentifier: voice.identifier) != nil ? neural : fallback).prepare(voiceOrLanguage)
        case .language(let language):
            (neural.voice(forLanguage: language).isFallback ? fallback : neural).prepare(voiceOrLanguage)
        }
    }

    public func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        switch utterance.voiceOrLanguage {
        case .voice(let voice):
            let engine = neural.voice(withIdentifier: voice.identifier) != nil ? neural : fallback
            engine.synthesize(utterance, cancellation: cancellation, onChunk: onChunk, completion: completion)
        case .language(let language):
            guard neural.voice(forLanguage: language).isFallback else {
                return neural.synthesize(utterance, cancellation: cancellation, onChunk: onChunk, completion: completion)
            }
            // Said once per distinct message (a `voice-fallback` warning event): this language has no neural voice.
            let neuralVoices = neural.availableVoices.map(\.identifier).joined(separator: ", ")
            fallback.synthesize(utterance, cancellation: cancellation, onChunk: onChunk) { result in
                completion(result.map { spoken in
                    var spoken = spoken
                    if spoken.warning == nil {
                        spoken.warning = "no neural voice speaks \"\(language.code)\" (\(neuralVoices)); spoken with eSpeak NG voice \(spoken.voice.identifier)"
                    }
                    return spoken
                })
            }
        }
    }
}
