// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The voice a `TTSEngine` picked for a language, and how well it matches.
///
/// `TTSEngine.voice(forLanguage:)` never fails: a language with no voice gets the engine's default
/// voice, with `isFallback` set and a `warning` to show the user.
public struct TTSVoiceChoice: Sendable, Hashable {
    /// How the voice was found.
    public enum Match: String, Sendable, Hashable {
        /// A voice (or the preset) for the language as asked, for example `en-US` -> `en-us`.
        case exact
        /// No voice for the full tag; one for a shorter tag (`fr-CA` -> `fr`, `zh-Hant-TW` -> `zh`).
        case baseLanguage
        /// No voice for the language at all: the engine's default voice.
        case defaultVoice
    }

    public var voice: TTSVoice
    /// The language that was asked for.
    public var requestedLanguage: Language
    public var match: Match
    /// Why the choice may not be what the user wanted, for stderr or a `warning` event; nil for an exact match.
    public var warning: String?

    public init(voice: TTSVoice, requestedLanguage: Language, match: Match, warning: String? = nil) {
        self.voice = voice
        self.requestedLanguage = requestedLanguage
        self.match = match
        self.warning = warning
    }

    /// Whether the language has no voice and the default voice speaks instead.
    public var isFallback: Bool { match == .defaultVoice }
}
