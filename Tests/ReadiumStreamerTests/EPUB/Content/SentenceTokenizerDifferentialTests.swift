// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
@testable import ReadiumShared
import ReadiumStreamer
import Testing

/// `SentenceTokenizer` (on UTF-8 offsets and first scalars) cuts exactly where the `Character`-walking
/// tokenizer it replaced (`ReferenceSentenceTokenizer`) did: on the text of every book of the corpus, and
/// on random mixes of the characters its rules look at, in each language its abbreviations know.
@Suite struct SentenceTokenizerDifferentialTests {
    static let languages: [Language?] = [nil] + ["en", "fr", "de", "es", "it", "ja"].map { Language(code: $0) }

    /// The UTF-8 offsets of `ranges` in `text`, to compare and to print.
    static func offsets(_ ranges: [Range<String.Index>], in text: String) -> [Range<Int>] {
        ranges.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(from: text.startIndex, to: $0.upperBound) }
    }

    /// Where both tokenizers first part on `text`, described; nil when they give the same ranges.
    static func difference(on text: String, language: Language?) -> String? {
        let expected = offsets(ReferenceSentenceTokenizer(language: language).tokenize(text), in: text)
        let actual = offsets(SentenceTokenizer(language: language).tokenize(text), in: text)
        guard expected != actual else { return nil }
        let index = (0..<min(expected.count, actual.count)).first { expected[$0] != actual[$0] } ?? min(expected.count, actual.count)
        let describe = { (ranges: [Range<Int>]) in index < ranges.count ? "\(ranges[index]) \(String(reflecting: text.utf8Slice(ranges[index])))" : "nothing" }
        return "\(language?.code ?? "no language"), \(String(reflecting: text)): sentence \(index) was \(describe(expected)), is \(describe(actual))"
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func sameSentencesOnEveryCorpusBook() throws {
        let books = try Corpus.files(withExtension: "epub") + [Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")]
        #expect(books.count > 40)
        var problems: [String] = []
        var segments = 0
        var bytes = 0
        var sentences = 0
        for url in books {
            guard let publication = try? TestEPUBOpener.open(url) else { continue }  // refused books are `make conformance`'s business
            let defaultLanguage = (publication.extensions[ContentServiceKey.key] as? EPUBContentService)?.defaultLanguage
            for element in try publication.content(from: nil).elements() {
                for segment in (element as? TextContentElement)?.segments ?? [] {
                    let language = segment.language ?? defaultLanguage
                    segments += 1
                    bytes += segment.text.utf8.count
                    sentences += SentenceTokenizer(language: language).tokenize(segment.text).count
                    // The text's own rules, and French or English ones too (French puts `»` after a space).
                    let other = Language(code: language?.baseCode == "fr" ? "en" : "fr")
                    for rules in [language, other] {
                        if let difference = Self.difference(on: segment.text, language: rules) {
                            problems.append("\(url.lastPathComponent): \(difference)")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) of \(segments) texts differ, first: \(problems.prefix(3).joined(separator: "; "))")
        // The corpus was read (7,626 texts, 2.1 MB, 19,702 sentences when this was written; moby-dick is 1.2 MB).
        #expect(segments > 5_000 && bytes > 1_500_000 && sentences > 15_000, "\(segments) texts, \(bytes) bytes, \(sentences) sentences")
    }

    /// The pieces random texts are made of: what the rules look at, and characters of several scalars
    /// around them (accents on punctuation, emoji sequences, flags, CR LF, Hangul jamo, Indic conjuncts).
    static let pieces: [String] = [
        "a", "b", "word", "Z", "The", "É", "e\u{301}", "A\u{301}", "ß", "ǅ", "Σ", "σ", "İ", "ﬁ", "1", "42", "٣",
        ".", "!", "?", "…", "...", "!!", "?!", "‼", "⁇", "⁈", "⁉", "؟", "۔", "׃", "।", "॥", "。", "！", "？", "｡",
        ".\u{301}", "!\u{20DD}", "…\u{FE0F}", "»\u{301}", "\u{301}", "\u{200D}", "\u{FE0F}",
        " ", " ", "  ", "\t", "\n", "\n", "\n\n", " \n \n", "\r\n", "\r\n\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        "\u{A0}", "\u{202F}", "\u{2009}", "\u{3000}",
        "\"", "'", "”", "’", "»", "›", ")", "]", "}", "」", "』", "）", "】", "〕", "〉", "》",
        "“", "‘", "«", "‹", "(", "[", "¿", "¡", "—", "–", "「", "『",
        "Mr", "Dr", "e.g", "i.e", "etc", "No", "p", "M", "Mme", "J", "T.S", "I", "z.B", "Sr", "sig.ra", "n°", "j.-c",
        "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷", "🇫", "吾輩", "猫", "ｶﾞ", "각", "\u{1100}\u{1161}", "\u{0600}", "كيف", "בְּ", "क्ष", "कि", "ก่",
    ]

    @Test(arguments: languages)
    func sameSentencesOnRandomMixes(language: Language?) {
        var generator = SplitMix64(seed: UInt64(Self.languages.firstIndex(of: language)!) + 19)
        var problems: [String] = []
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...30, using: &generator)
            let text = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            if let difference = Self.difference(on: text, language: language) { problems.append(difference) }
        }
        #expect(problems.isEmpty, "\(problems.count) of 3000 differ, first: \(problems.prefix(3).joined(separator: "; "))")
    }

    /// The scalar tests of `SentenceMarks` accept what the reference's `Set<Character>`s hold, nothing else.
    @Test func marksAreTheReferenceSets() {
        let checks: [(String, (UInt32) -> Bool, Set<Character>)] = [
            ("terminators", SentenceMarks.isTerminator, ReferenceSentenceTokenizer.terminators),
            ("CJK terminators", SentenceMarks.isCJKTerminator, ReferenceSentenceTokenizer.cjkTerminators),
            ("closers", SentenceMarks.isCloser, ReferenceSentenceTokenizer.closers),
            ("openers", SentenceMarks.isOpener, ReferenceSentenceTokenizer.openers),
        ]
        for (name, isMark, set) in checks {
            let accepted = (0..<0x3_0000).compactMap(Unicode.Scalar.init).filter { isMark($0.value) }
            #expect(Set(accepted.map(Character.init)) == set, "\(name)")
            // One scalar without a canonical decomposition each: a character of several scalars never equals one.
            for mark in set {
                #expect(mark.unicodeScalars.count == 1 && String(mark).decomposedStringWithCanonicalMapping == String(mark), "\(name): \(mark)")
            }
        }
    }
}
