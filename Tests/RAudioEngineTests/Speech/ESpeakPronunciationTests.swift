// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// georgia-pls-ssml spoken by eSpeak NG: every phoneme span (its lexicon's words, its `ssml:ph`) is spoken as the
/// given phonemes, read back from eSpeak NG's own phoneme trace; word boundaries still point at the page's words.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct ESpeakPronunciationTests {
    let engine = SpeechTesting.engine

    /// The book's sentences that have phoneme spans, as the speech synthesizer's utterances carry them.
    static func utterances() throws -> [TTSUtterance] {
        let publication = try TestEPUBOpener.open(try Corpus.file("epub/idpf-epub3-samples/georgia-pls-ssml.epub"))
        let iterator = try publication.content(from: nil).iterator()
        let tokenizer = ContentTokenizer(defaultLanguage: Language(code: "en-US"))
        var result: [TTSUtterance] = []
        while let element = try iterator.next() {
            for case let unit as TextContentElement in tokenizer.tokenize(element) {
                guard let segment = unit.segments.first, !segment.phonemes.isEmpty else { continue }
                var utterance = TTSUtterance(text: segment.text, voiceOrLanguage: .language(segment.language ?? Language(code: "en-US")))
                utterance.phonemes = segment.phonemes
                result.append(utterance)
            }
        }
        return result
    }

    /// The phonemes of a trace (`_` between phonemes, spaces between words, a line per clause) as `canonical` names.
    static func phonemes(ofTrace trace: String) -> [String] {
        trace.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "_" }).flatMap(canonical)
    }

    /// The phoneme `name` without stress marks, with eSpeak NG's allophones and contextual variants taken as the
    /// phoneme they stand for (the flapped `t#` of American English is a `t`, `@2` and `I2` are unstressed `@`
    /// and `I`, `3` is the schwa before an r, `aI@` is `aI` then a schwa, `@L` a syllabic l, `i` and `i:` are one
    /// /i/ and `i@` is /i/ then a schwa); pauses and syllable
    /// marks (`;`, `:`, `!`) are nothing.
    static func canonical(_ name: some StringProtocol) -> [String] {
        let bare = String(name.filter { $0 != "'" && $0 != "," })
        guard bare.contains(where: { $0.isLetter || $0.isNumber || $0 == "@" || $0 == "?" }) else { return [] }
        switch bare {
        case "aI@", "aI3": return ["aI", "@"]
        case "aU@": return ["aU", "@"]
        case "i@", "i@3", "I@": return ["i", "@"]
        case "i:": return ["i"]
        case "@L", "l-": return ["l"]
        case "n-": return ["n"]
        case "m-": return ["m"]
        case "3", "@-": return ["@"]
        case "aa": return ["a"]
        case "o@": return ["O@"]
        case "r-": return ["r"]
        default:
            var stem = bare
            while stem.count > 1, let last = stem.last, last == "#" || last == "-" || last.isNumber, stem.first?.isNumber == false { stem.removeLast() }
            return [stem]
        }
    }
    static func contains(_ sequence: [String], in phonemes: [String]) -> Bool {
        guard !sequence.isEmpty, sequence.count <= phonemes.count else { return false }
        return (0...(phonemes.count - sequence.count)).contains { Array(phonemes[$0..<($0 + sequence.count)]) == sequence }
    }

    @Test func everySpanIsSpokenAsItsPhonemesInTheEnginesOwnTrace() throws {
        let utterances = try Self.utterances()
        let spanCount = utterances.reduce(0) { $0 + $1.phonemes.count }
        #expect(spanCount > 150, "the page's ssml:ph and the lexicon's words")
        var checked = 0
        for utterance in utterances {
            let (spoken, trace) = try engine.synthesizeTracingPhonemes(utterance)
            #expect(spoken.warning == nil, "\(spoken.warning ?? "")")
            let heard = Self.phonemes(ofTrace: trace)
            for span in utterance.phonemes {
                let words = try #require(ESpeakPhonemeMapping.phonemes(forIPA: span.phonemes, languageCode: "en-US"))
                let expected = words.flatMap { $0 }.flatMap(Self.canonical)
                #expect(Self.contains(expected, in: heard),
                        "\(utterance.text.utf8Slice(span.range)) /\(span.phonemes)/: \(expected.joined(separator: "_")) not in \(trace)")
                checked += 1
            }
        }
        #expect(checked == spanCount)
    }

    @Test func withoutTheSpansESpeakSaysThePageAbbreviationsOtherwise() throws {
        // The trace does tell: "N." read by its letters is not /nɔrθ/.
        var utterance = TTSUtterance(text: "It is bounded N. by Tennessee.", voiceOrLanguage: .language(Language(code: "en-US")))
        let expected = try #require(ESpeakPhonemeMapping.phonemes(forIPA: "nɔrθ", languageCode: "en-US")).flatMap { $0 }.flatMap(Self.canonical)
        let plain = try engine.synthesizeTracingPhonemes(utterance).phonemeTrace
        #expect(!Self.contains(expected, in: Self.phonemes(ofTrace: plain)), "\(plain)")
        utterance.phonemes = [PhonemeSpan(range: 14..<16, phonemes: "nɔrθ")]
        let given = try engine.synthesizeTracingPhonemes(utterance).phonemeTrace
        #expect(Self.contains(expected, in: Self.phonemes(ofTrace: given)), "\(given)")
    }

    @Test func wordBoundariesStillPointAtThePagesWords() throws {
        let text = "Between 30° 31′ and 35° N., and Macon."
        var utterance = TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en-US")))
        let given = [("30°", "ˈθɜrti dɪˈgriz"), ("31′", "ˈθɜrtiˈwʌn ˈmɪnɪtz"), ("35°", "ˈθɜrtiˈfaɪv dɪˈgriz"), ("N.", "nɔrθ"), ("Macon", "ˈmeɪkən")]
        utterance.phonemes = try given.map { word, ipa in PhonemeSpan(range: try #require(text.utf8Range(of: word)), phonemes: ipa) }
        let spoken = try engine.synthesizeBlocking(utterance)
        let words = SpeechTesting.words(of: spoken)
        #expect(words == ["Between", "30", "31", "and", "35", "N", "and", "Macon"], "the words as TTSWordScanner finds them in the page's text")
        let frames = spoken.wordBoundaries.map(\.startFrame)
        #expect(frames == frames.sorted())
        #expect(Set(frames).count == frames.count, "each word starts at its own frame")
    }
}

extension String {
    /// The UTF-8 offsets of the first occurrence of `word`.
    func utf8Range(of word: String) -> Range<Int>? {
        guard let range = range(of: word) else { return nil }
        return utf8.distance(from: startIndex, to: range.lowerBound)..<utf8.distance(from: startIndex, to: range.upperBound)
    }
}
