// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A voice a `TTSEngine` can speak with.
///
/// Mirrors Readium's `TTSVoice`: an identifier the engine understands (for eSpeak NG the voice's file
/// name, `fr`, `en-us`), a name for people, and the language it speaks as a BCP-47 tag.
public struct TTSVoice: Sendable, Hashable, CustomStringConvertible {
    /// The voice's gender, where the engine knows it.
    public enum Gender: String, Sendable, Hashable {
        case female
        case male
        case unspecified
    }

    /// What the engine selects the voice by; stable across runs.
    public var identifier: String
    /// A name for people, for example `French (France)`.
    public var name: String
    /// The language the voice speaks best.
    public var language: Language
    /// Other languages the voice declares it can speak (for example `zh` for a Mandarin voice).
    public var otherLanguages: [Language]
    public var gender: Gender

    public init(identifier: String, name: String, language: Language, otherLanguages: [Language] = [], gender: Gender = .unspecified) {
        self.identifier = identifier
        self.name = name
        self.language = language
        self.otherLanguages = otherLanguages
        self.gender = gender
    }

    /// Every language the voice speaks, its own first.
    public var languages: [Language] { [language] + otherLanguages }

    /// Whether the voice speaks `language`'s base language: a voice for `fr-FR` matches `fr` and `fr-CA`.
    public func speaks(baseLanguageOf language: Language) -> Bool {
        let base = language.baseCode.lowercased()
        return languages.contains { $0.baseCode.lowercased() == base }
    }

    public var description: String { "\(identifier) (\(name), \(language))" }
}
