// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// `SpeechUtterances` (a book's utterances for reading it into a file) and `TTSUtterance(speaking:…)` give
/// what `PublicationSpeechSynthesizer` reads aloud: the same utterances, in order, each with the same voice.
@Suite(.serialized) struct SpeechUtterancesTests {
    @Test func theSequenceIsWhatTheSynthesizerReadsWithTheSameVoices() async throws {
        let publication = try PublicationOpener().open(url: PublicationSpeechSynthesizerTests.sampleEPUB)
        let engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: publication, engine: engine, components: AudioEngineComponents.make(output: .null, realtime: false),
            configuration: SpeechSynthesizerConfiguration(voiceIdentifier: "en-us"))
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait { recorder.states.last == .ended }
        await synthesizer.close()
        let spoken = recorder.utterances
        #expect(spoken.count >= 8)

        let utterances = try SpeechUtterances(publication: publication, configuration: SpeechSynthesizerConfiguration(voiceIdentifier: "en-us"))
        let listed = Array(utterances)
        #expect(listed.map(\.text) == spoken.map(\.0.text))
        #expect(listed.map(\.locator) == spoken.map(\.0.locator))
        let voice = try #require(engine.voice(withIdentifier: "en-us"))
        let fallback = Language(code: "en")
        for (utterance, (_, heardVoice)) in zip(listed, spoken) {
            let request = TTSUtterance(speaking: utterance, voice: voice, mainLanguage: utterances.mainLanguage, fallbackLanguage: fallback)
            let chosen = switch request.voiceOrLanguage {
            case .voice(let voice): voice.identifier
            case .language(let language): engine.voice(forLanguage: language).voice.identifier
            }
            #expect(chosen == heardVoice.identifier, "\(utterance.text)")
        }
        // The sample's French chapter is read by a French voice, not the English one asked for.
        #expect(spoken.contains { $0.1.identifier != "en-us" })
    }
}
