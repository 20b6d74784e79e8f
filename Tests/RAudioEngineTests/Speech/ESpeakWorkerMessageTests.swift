// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing

/// The lines between `ESpeakWorkerPool` and `raudio espeak-worker`: what one side writes the other reads.
@Suite struct ESpeakWorkerMessageTests {
    @Test func aRequestCarriesItsPhonemeSpans() throws {
        var utterance = TTSUtterance(text: "Bounded N. by Macon.", voiceOrLanguage: .language(Language(code: "en-US")))
        utterance.phonemes = [PhonemeSpan(range: 8..<10, phonemes: "nɔrθ"), PhonemeSpan(range: 14..<19, phonemes: "ˈmeɪkən")]
        let read = try #require(ESpeakWorkerMessage.parseRequest(ESpeakWorkerMessage.request(for: utterance)))
        #expect(read.phonemes == utterance.phonemes)
        #expect(read == utterance)
    }

    @Test func aRequestReadsBackAsTheSameUtterance() throws {
        let text = "« L'été » — déjà vu,\nsaid Zoë. 🌊 \"Quoted\" \\ end"
        let byVoice = TTSUtterance(text: text, voiceOrLanguage: .voice(TTSVoice(identifier: "fr", name: "French", language: Language(code: "fr"))),
                                   rate: 1.25, pitch: 0.8, volume: 0.5)
        let read = try #require(ESpeakWorkerMessage.parseRequest(ESpeakWorkerMessage.request(for: byVoice)))
        #expect(read.text == text && read.rate == 1.25 && read.pitch == 0.8 && read.volume == 0.5)
        guard case .voice(let voice) = read.voiceOrLanguage else { Issue.record("not a voice: \(read.voiceOrLanguage)"); return }
        #expect(voice.identifier == "fr")
        #expect(!ESpeakWorkerMessage.request(for: byVoice).contains("\n"), "one line")

        let byLanguage = TTSUtterance(text: "Hi.", voiceOrLanguage: .language(Language(code: "en-GB")))
        let readLanguage = try #require(ESpeakWorkerMessage.parseRequest(ESpeakWorkerMessage.request(for: byLanguage)))
        #expect(readLanguage.voiceOrLanguage == .language(Language(code: "en-GB")))
        #expect(ESpeakWorkerMessage.parseRequest("{\"voice\": \"fr\"}") == nil)
        #expect(ESpeakWorkerMessage.parseRequest("not json") == nil)
    }

    @Test func anAnswerCarriesItsWordsAsRangesOfTheSameText() throws {
        let text = "Zoë's café, déjà 🌊 vu."
        let words = TTSWordScanner.words(in: text)
        let boundaries = words.enumerated().map { TTSWordBoundary(range: $0.element.range, startFrame: Int64($0.offset * 100)) }
        let voice = TTSVoice(identifier: "en-us", name: "English", language: Language(code: "en-US"))
        let spoken = SynthesizedUtterance(text: text, voice: voice, warning: "a warning", format: PCMFormat(sampleRate: 22050, channelCount: 1),
                                          samples: [Float](repeating: 0.25, count: 1000), wordBoundaries: boundaries)
        let header = try #require(ESpeakWorkerMessage.parseAnswerHeader(ESpeakWorkerMessage.answerHeader(for: .success(spoken))))
        #expect(header.sampleCount == 1000 && header.voiceIdentifier == "en-us" && header.warning == "a warning" && header.error == nil)
        let read = try #require(ESpeakWorkerMessage.wordBoundaries(of: header, in: text, frameCount: 1000))
        #expect(read == boundaries)
        #expect(read.map { String(text[$0.range]) } == words.map { String(text[$0.range]) })
        // Words past the audio or the text are a broken answer.
        #expect(ESpeakWorkerMessage.wordBoundaries(of: header, in: text, frameCount: 150) == nil)
        #expect(ESpeakWorkerMessage.wordBoundaries(of: header, in: "Zoë", frameCount: 1000) == nil)
    }

    @Test func aFailureKeepsItsCodeAndStatus() throws {
        let error = TTSError(.ttsUnknownVoice, message: "no eSpeak NG voice \"xx\"", underlyingStatus: 2)
        let header = try #require(ESpeakWorkerMessage.parseAnswerHeader(ESpeakWorkerMessage.answerHeader(for: .failure(error))))
        #expect(header.sampleCount == 0 && header.error == error)
        #expect(ESpeakWorkerMessage.parseAnswerHeader("{\"words\": []}") == nil)
        #expect(ESpeakWorkerMessage.parseReady(ESpeakWorkerMessage.ready(sampleRate: 22050)) == .ready(sampleRate: 22050))
        #expect(ESpeakWorkerMessage.parseReady("Segmentation fault") != .ready(sampleRate: 22050))
    }
}
