// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// One utterance for a `TTSEngine` to speak: its text, the voice or language, and the prosody.
///
/// `rate` and `pitch` are multipliers of the voice preset's own (1 = the preset's words per minute and
/// pitch); `volume` multiplies the samples (1 = unchanged).
public struct TTSUtterance: Sendable, Hashable {
    /// Which voice speaks: one chosen by the caller, or the best one for a language.
    public enum VoiceOrLanguage: Sendable, Hashable {
        case voice(TTSVoice)
        case language(Language)
    }

    /// The text, spoken literally (no markup is interpreted).
    public var text: String
    public var voiceOrLanguage: VoiceOrLanguage
    public var rate: Double
    public var pitch: Double
    public var volume: Double
    /// Parts of `text` the engine speaks as these phonemes (IPA) instead of reading their letters, UTF-8 offsets of
    /// `text` in text order; word boundaries still point at `text`.
    public var phonemes: [PhonemeSpan] = []

    public init(text: String, voiceOrLanguage: VoiceOrLanguage, rate: Double = 1, pitch: Double = 1, volume: Double = 1) {
        self.text = text
        self.voiceOrLanguage = voiceOrLanguage
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}
