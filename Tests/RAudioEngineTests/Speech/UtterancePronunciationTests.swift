// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// The speech synthesizer's utterances of georgia-pls-ssml carry their phoneme spans to the engine's request.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct UtterancePronunciationTests {
    @Test func everyPlannedUtteranceHandsItsSpansToTheEngine() throws {
        let publication = try TestEPUBOpener.open(try Corpus.file("epub/idpf-epub3-samples/georgia-pls-ssml.epub"))
        let planner = UtterancePlanner(content: try publication.content(from: nil), tokenizer: ContentTokenizer(defaultLanguage: Language(code: "en-US")),
                                       skippedRoles: [], startLocator: nil, base: 0)
        let engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        let source = UtteranceRenderSource(engine: engine, settings: .init(
            voice: nil, mainLanguage: Language(code: "en"), fallbackLanguage: Language(code: "en"), speed: 1, pitch: 1, lookahead: 0))
        var index = 0
        var spans = 0
        while let utterance = planner.utterance(at: index) {
            let request = source.ttsUtterance(for: utterance, settings: source.settings)
            #expect(request.text == utterance.text)
            #expect(request.phonemes == utterance.phonemes)
            for span in request.phonemes { #expect(span.range.upperBound <= request.text.utf8.count) }
            spans += request.phonemes.count
            index += 1
        }
        #expect(spans == 282, "the page's 102 ssml:ph and the 180 occurrences of the lexicon's words")
    }

    @Test func aResumedUtteranceKeepsTheSpansOfWhatIsLeft() {
        var utterance = SpeechUtterance(text: "Bounded N. by Macon.", locator: Locator(href: "p.xhtml", type: "application/xhtml+xml"), language: Language(code: "en"))
        utterance.phonemes = [PhonemeSpan(range: 8..<10, phonemes: "nɔrθ"), PhonemeSpan(range: 14..<19, phonemes: "ˈmeɪkən")]
        let job = SynthesisJob(utterance: utterance, textStart: utterance.text.firstIndex(of: "b"))
        #expect(job.spokenText == "by Macon.")
        #expect(utterance.phonemes.sliced(to: job.spokenTextOffset..<utterance.text.utf8.count) == [PhonemeSpan(range: 3..<8, phonemes: "ˈmeɪkən")])
    }
}
