// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing

/// A rendered book's narrator names the voice by engine and name, never by its bare identifier.
@Suite struct TTSVoiceNarratorTests {
    @Test func aNarratorIsTheEngineAndTheVoicesName() {
        let french = TTSVoice(identifier: "fr", name: "French_(France)", language: Language(code: "fr-FR"))
        #expect(french.narratorName == "eSpeak NG French (France)")
        let piper = TTSVoice(identifier: "piper:en_US-joe-medium", name: "joe (en-US, medium, Piper)", language: Language(code: "en-US"))
        #expect(piper.narratorName == "Piper en_US joe (medium)")
        let dashed = TTSVoice(identifier: "piper:de_DE-thorsten-emotional-medium", name: "x", language: Language(code: "de-DE"))
        #expect(dashed.narratorName == "Piper de_DE thorsten-emotional (medium)")
    }
}
