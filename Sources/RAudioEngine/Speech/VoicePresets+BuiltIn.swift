// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension VoicePresets {
    /// The presets used when no `voices/` folder is found: the same choices as the shipped files.
    public static let builtIn: VoicePresets = {
        func preset(_ language: String, _ voice: String, rate: Int = 160, pitch: Int = 50, neural: String? = nil) -> VoicePreset {
            VoicePreset(language: Language(code: language), voice: voice, rate: rate, pitch: pitch, neuralVoice: neural)
        }
        return VoicePresets(
            presets: [
                preset("en", "en-us", neural: "piper:en_US-joe-medium"), preset("en-US", "en-us", neural: "piper:en_US-joe-medium"),
                preset("en-GB", "en"),
                preset("fr", "fr"), preset("fr-FR", "fr"), preset("fr-BE", "fr-be"), preset("fr-CH", "fr-ch"),
                preset("de", "de"), preset("es", "es"), preset("es-419", "es-419"), preset("it", "it"),
                preset("pt", "pt"), preset("pt-BR", "pt-br"), preset("ja", "ja", rate: 150),
                preset("ar", "ar", rate: 150), preset("he", "he", rate: 150),
                preset("zh", "cmn", rate: 150), preset("zh-Hans", "cmn", rate: 150), preset("zh-Hant", "cmn", rate: 150),
                preset("zh-HK", "yue", rate: 150), preset("zh-TW", "cmn", rate: 150),
            ],
            defaultPreset: VoicePreset(language: nil, voice: "en-us", rate: 160, pitch: 50)
        )
    }()
}
