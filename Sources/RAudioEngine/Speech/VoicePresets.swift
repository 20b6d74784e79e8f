// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The voice presets raudio speaks with: a default voice, rate and pitch per language.
///
/// Loaded from the `voices/` folder at start-up (`VoicePresets.load`), or `builtIn` when no folder is
/// found. Lookups are case-insensitive on BCP-47 tags and exact: the engine does the fallbacks.
public struct VoicePresets: Sendable {
    /// Presets for a language, one per tag.
    public private(set) var presets: [VoicePreset]
    /// The preset for languages without one, and the voice that speaks languages with no voice.
    public var defaultPreset: VoicePreset

    public init(presets: [VoicePreset], defaultPreset: VoicePreset) {
        self.defaultPreset = defaultPreset
        var seen: Set<Language> = []
        self.presets = presets.filter { preset in
            guard let language = preset.language else { return false }
            return seen.insert(language).inserted
        }
    }

    /// The preset for exactly `language` (`en-GB` does not match `en`).
    public func preset(forLanguage language: Language) -> VoicePreset? {
        presets.first { $0.language == language }
    }

    /// The preset for the voice `identifier`: the first whose voice it is, else nil.
    public func preset(forVoice identifier: String) -> VoicePreset? {
        let identifier = identifier.lowercased()
        if defaultPreset.voice == identifier { return defaultPreset }
        return presets.first { $0.voice == identifier }
    }
}
