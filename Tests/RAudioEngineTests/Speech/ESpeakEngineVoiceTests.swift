// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing

/// Voices and language fallbacks of the real eSpeak NG.
struct ESpeakEngineVoiceTests {
    let engine = SpeechTesting.engine

    @Test func listsManyVoicesIncludingFrenchWithBCP47Languages() {
        #expect(engine.availableVoices.count > 50)
        let french = engine.voice(withIdentifier: "fr")
        #expect(french?.language == Language(code: "fr-FR"))
        #expect(french?.name == "French (France)")
        #expect(Set(engine.availableVoices.map(\.identifier)).count == engine.availableVoices.count)
        #expect(engine.availableVoices.allSatisfy { $0.language.isWellFormed })
    }

    @Test func filteringByBaseLanguageFindsOnlyFrenchVoices() {
        let french = engine.availableVoices.filter { $0.speaks(baseLanguageOf: Language(code: "fr-CA")) }
        #expect(french.count >= 3)
        #expect(french.allSatisfy { $0.language.baseCode == "fr" })
    }

    @Test(arguments: [
        ("en-US", "en-us"), ("en-GB", "en"), ("en", "en-us"), ("fr-FR", "fr"), ("fr", "fr"), ("ja-JP", "ja"),
        ("pt-BR", "pt-br"), ("pt", "pt"), ("de-DE", "de"), ("zh-Hant", "cmn"), ("zh-Hant-TW", "cmn"), ("zh-HK", "yue"),
        ("he", "he"), ("ar-EG", "ar"), ("en-us", "en-us"), ("es-MX", "es-419"),
    ])
    func languagesMapToEspeakVoicesWithoutWarning(tag: String, identifier: String) {
        let choice = engine.voice(forLanguage: Language(code: tag))
        #expect(choice.voice.identifier == identifier)
        #expect(!choice.isFallback)
        #expect(choice.warning == nil)
    }

    @Test func regionWithoutVoiceFallsBackToBaseLanguage() {
        let choice = engine.voice(forLanguage: Language(code: "fr-CA"))
        #expect(choice.voice.identifier == "fr")
        #expect(choice.match == .baseLanguage)
    }

    @Test(arguments: ["sa", "sa-IN", "tlh", "x!"])
    func languageWithoutVoiceFallsBackToDefaultVoiceWithWarning(tag: String) throws {
        let choice = engine.voice(forLanguage: Language(code: tag))
        #expect(choice.isFallback)
        #expect(choice.voice.identifier == engine.presets.defaultPreset.voice)
        let warning = try #require(choice.warning)
        #expect(warning.contains(tag))
    }

    @Test func unknownVoiceIdentifierIsAnError() async {
        let voice = TTSVoice(identifier: "no-such-voice", name: "x", language: Language(code: "en"))
        await #expect(throws: TTSError.self) {
            try await engine.synthesize(TTSUtterance(text: "Hello.", voiceOrLanguage: .voice(voice)))
        }
    }

    @Test func initializingTwiceReusesTheEspeakThread() throws {
        _ = engine.availableVoices
        let second = try ESpeakEngine(presets: .builtIn)
        _ = try second.synthesizeBlocking(TTSUtterance(text: "Again.", voiceOrLanguage: .language(Language(code: "en"))))
        #expect(ESpeakEngine.initializationCount == 1)
    }
}
