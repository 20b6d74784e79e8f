// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import ReadiumNavigator
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// eSpeak NG's start-up on its own thread (`ESpeakEngine.startInitializing`) and a voice loaded ahead of
/// the first utterance (`prepare`), as `raudio speak` uses them to reach its first audio sooner.
@Suite(.serialized)
struct ESpeakStartupTests {
    @Test func startingFromSeveralThreadsInitializesOnceAndTheEngineHasEveryVoice() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { ESpeakEngine.startInitializing() } }
        }
        let engine = try ESpeakEngine(presets: .builtIn)
        #expect(ESpeakEngine.initializationCount == 1)
        // The voices listed at start-up are eSpeak NG's own list, read once.
        let listed = ESpeakThread.shared.performAndWait { ESpeakVoiceList.read() }
        #expect(engine.availableVoices.map(\.identifier) == listed.map(\.identifier))
        #expect(engine.voice(withIdentifier: "fr") != nil)
        let spoken = try engine.synthesizeBlocking(TTSUtterance(text: "Bonjour.", voiceOrLanguage: .language(Language(code: "fr"))))
        #expect(spoken.voice.identifier == "fr")
        #expect(spoken.samples.count > 2_000)
    }

    @Test func preparingALanguageLoadsItsVoiceBeforeAnyUtterance() throws {
        let engine = SpeechTesting.engine
        _ = try SpeechTesting.speak("Hello.", language: "en")
        #expect(ESpeakThread.shared.performAndWait { ESpeakRequest.loadedVoiceIdentifier } == engine.voice(forLanguage: Language(code: "en")).voice.identifier)
        engine.prepare(.language(Language(code: "de")))
        // Behind the preparation on the one eSpeak thread: the German voice is loaded, nothing spoken yet.
        #expect(ESpeakThread.shared.performAndWait { ESpeakRequest.loadedVoiceIdentifier } == "de")
        let spoken = try SpeechTesting.speak("Guten Tag.", language: "de")
        #expect(spoken.voice.identifier == "de")
    }

    @Test func aPreparedVoiceSpeaksAsOneLoadedByTheUtterance() throws {
        let engine = SpeechTesting.engine
        let utterance = TTSUtterance(text: "Il fait beau aujourd'hui.", voiceOrLanguage: .language(Language(code: "fr")))
        _ = try SpeechTesting.speak("Hello.", language: "en")
        let loadedByUtterance = try engine.synthesizeBlocking(utterance)
        _ = try SpeechTesting.speak("Hello.", language: "en")
        engine.prepare(.language(Language(code: "fr")))
        let prepared = try engine.synthesizeBlocking(utterance)
        // eSpeak NG's wave generator keeps state from one synthesis to the next (the same sentence twice gives a
        // few samples more or less), so the same voice and words, and the length within 20 ms.
        #expect(prepared.voice == loadedByUtterance.voice)
        #expect(SpeechTesting.words(of: prepared) == SpeechTesting.words(of: loadedByUtterance))
        let difference = abs(prepared.frameCount - loadedByUtterance.frameCount)
        #expect(difference <= Int64(engine.format.sampleRate / 50), "\(prepared.frameCount) against \(loadedByUtterance.frameCount) frames")
    }

    @Test func preparingAnUnknownVoiceLeavesTheErrorToTheUtterance() async throws {
        let engine = SpeechTesting.engine
        let unknown = TTSVoice(identifier: "no-such-voice", name: "x", language: Language(code: "en"))
        engine.prepare(.voice(unknown))
        await #expect(throws: TTSError.self) {
            try await engine.synthesize(TTSUtterance(text: "Hello.", voiceOrLanguage: .voice(unknown)))
        }
        _ = try SpeechTesting.speak("Still speaking.", language: "en")
    }

    @Test func aNewSynthesizerLoadsTheVoiceOfTheBooksLanguageBeforeStarting() async throws {
        let engine = SpeechTesting.engine
        _ = try SpeechTesting.speak("Guten Tag.", language: "de")
        let publication = try PublicationOpener().open(url: Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub"))
        let language = try #require(publication.metadata.languages.first)
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: AudioEngineComponents.make(output: .null))
        #expect(ESpeakThread.shared.performAndWait { ESpeakRequest.loadedVoiceIdentifier } == engine.voice(forLanguage: Language(code: language)).voice.identifier)
        #expect(engine.voice(forLanguage: Language(code: language)).voice.identifier != "de")
        await synthesizer.close()
    }
}
