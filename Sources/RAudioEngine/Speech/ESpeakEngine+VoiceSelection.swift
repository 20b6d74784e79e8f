// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

extension ESpeakEngine {
    /// The voice for `language`: the preset's voice or eSpeak's for the tag, then for shorter tags
    /// (`zh-Hant-TW`, `zh-Hant`, `zh`), else the default preset's voice with a warning.
    public func voice(forLanguage language: Language) -> TTSVoiceChoice {
        if language.isWellFormed {
            for (index, tag) in Self.fallbackTags(of: language).enumerated() {
                if let voice = voice(forExactLanguage: tag) {
                    return TTSVoiceChoice(voice: voice, requestedLanguage: language, match: index == 0 ? .exact : .baseLanguage)
                }
            }
        }
        return TTSVoiceChoice(
            voice: defaultVoice, requestedLanguage: language, match: .defaultVoice,
            warning: "no eSpeak NG voice for language \"\(language.code)\"; speaking it with the default voice \(defaultVoice.identifier) (\(defaultVoice.name))"
        )
    }

    /// The voice of the default preset, or eSpeak's first voice if the preset names none it has.
    public var defaultVoice: TTSVoice {
        voice(withIdentifier: presets.defaultPreset.voice)
            ?? availableVoices.first
            ?? TTSVoice(identifier: presets.defaultPreset.voice, name: presets.defaultPreset.voice, language: Language(code: "en"))
    }

    /// `language` then each shorter tag: `zh-Hant-TW`, `zh-Hant`, `zh`.
    static func fallbackTags(of language: Language) -> [Language] {
        var subtags = language.code.split(separator: "-").map(String.init)
        var tags: [Language] = []
        while !subtags.isEmpty {
            tags.append(Language(code: subtags.joined(separator: "-")))
            subtags.removeLast()
        }
        return tags
    }

    /// A voice for exactly `tag`: the preset's, the voice named like it, one whose language it is,
    /// one that lists it among its other languages.
    private func voice(forExactLanguage tag: Language) -> TTSVoice? {
        if let preset = presets.preset(forLanguage: tag), let voice = voice(withIdentifier: preset.voice) { return voice }
        if let voice = voice(withIdentifier: tag.code) { return voice }
        if let voice = availableVoices.first(where: { $0.language == tag }) { return voice }
        return availableVoices.first { $0.otherLanguages.contains(tag) }
    }

    /// The preset whose rate and pitch `voice` speaks with: the one for the language asked (or a
    /// shorter tag) when it names this voice, else the first naming the voice, else the default's.
    func prosodyPreset(for voice: TTSVoice, language: Language?) -> VoicePreset {
        for tag in language.map(Self.fallbackTags) ?? [] {
            if let preset = presets.preset(forLanguage: tag), preset.voice == voice.identifier { return preset }
        }
        return presets.preset(forVoice: voice.identifier) ?? presets.defaultPreset
    }
}
