// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// `ssml:ph`, `ssml:alphabet` and lexicons while a page's text is extracted: phoneme spans over the page's words,
/// aliases read instead of the word while the quote stays the page's.
@Suite struct PronunciationExtractionTests {
    func extract(_ body: String, lexicons: [PronunciationLexicon] = [], rootAlphabet: String? = "ipa") throws -> (segments: [TextContentElement.Segment], warnings: [ParsingWarning]) {
        let xhtml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:ssml="http://www.w3.org/2001/10/synthesis" \(rootAlphabet.map { "ssml:alphabet=\"\($0)\"" } ?? "") xml:lang="en"><head><title>T</title></head>
        <body>\(body)</body></html>
        """
        let document = try XMLDocument(string: xhtml, href: "EPUB/page.xhtml", mode: .recovering)
        var extractor = HTMLContentExtractor(href: "EPUB/page.xhtml", type: "application/xhtml+xml", defaultLanguage: Language(code: "en"),
                                             totalProgressionRange: 0..<1)
        extractor.lexicons = lexicons
        let extracted = extractor.extract(document)
        return (extracted.elements.compactMap { $0.element as? TextContentElement }.flatMap(\.segments), extracted.warnings)
    }

    func spoken(_ segment: TextContentElement.Segment) -> [String: String] {
        Dictionary(segment.phonemes.map { (String(segment.text.utf8Slice($0.range)), $0.phonemes) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func ssmlPhCoversTheElementsTextWithItsInheritedAlphabet() throws {
        let (segments, warnings) = try extract("""
        <p>Between <span ssml:ph="ˈθɜrti dɪˈgriz">30°</span> and <span ssml:alphabet="x-sampa"><b ssml:ph="nO6T"> N. </b></span>, far.</p>
        """)
        #expect(warnings.isEmpty)
        let segment = try #require(segments.first)
        #expect(segment.text == "Between 30° and N. , far.")
        #expect(spoken(segment) == ["30°": "ˈθɜrti dɪˈgriz", "N.": "nɔɐθ"])
        #expect(segment.locator.text.highlight == "Between 30° and  N. , far.")
    }

    @Test func anUnknownAlphabetIsWarnedAndTheTextSpokenAsWritten() throws {
        let (segments, warnings) = try extract("<p>It is <span ssml:alphabet=\"x-arpabet\" ssml:ph=\"N AO R TH\">N.</span> of here.</p>")
        #expect(segments.first?.phonemes == [])
        #expect(warnings.count == 1)
        #expect(warnings.first?.source == "EPUB/page.xhtml")
        #expect(warnings.first?.message.contains("x-arpabet") == true)
    }

    @Test func lexiconPhonemesApplyToWordsNoSsmlPhCovers() throws {
        let lexicon = PronunciationLexicon(href: "EPUB/en.pls", language: Language(code: "en"), entries: [
            "Macon": .phonemes("ˈmeɪkən"), "Mobile": .phonemes("moʊˈbil"),
        ])
        let (segments, _) = try extract("<p>Macon and <span ssml:ph=\"ˈmoʊbil\">Mobile</span>, Macon.</p>", lexicons: [lexicon])
        let segment = try #require(segments.first)
        #expect(segment.phonemes.map { String(segment.text.utf8Slice($0.range)) } == ["Macon", "Mobile", "Macon"])
        #expect(segment.phonemes.map(\.phonemes) == ["ˈmeɪkən", "ˈmoʊbil", "ˈmeɪkən"])
    }

    @Test func aLexiconInAnotherLanguageDoesNotApply() throws {
        let lexicon = PronunciationLexicon(href: "EPUB/fr.pls", language: Language(code: "fr"), entries: ["Macon": .phonemes("makɔ̃")])
        let (segments, _) = try extract("<p>Macon.</p>", lexicons: [lexicon])
        #expect(segments.first?.phonemes == [])
    }

    @Test func anAliasIsSpokenWhileTheQuoteStaysThePagesText() throws {
        let lexicon = PronunciationLexicon(href: "EPUB/en.pls", language: Language(code: "en"), entries: [
            "W3C": .alias("World Wide Web Consortium"), "Macon": .phonemes("ˈmeɪkən"),
        ])
        let (segments, _) = try extract("<p>The  W3C met\n in Macon.</p>", lexicons: [lexicon])
        let segment = try #require(segments.first)
        #expect(segment.text == "The World Wide Web Consortium met in Macon.")
        #expect(segment.locator.text.highlight == "The  W3C met\n in Macon.")
        #expect(segment.quoteMap.textLength == segment.text.utf8.count)
        #expect(segment.quoteMap.quoteLength == "The  W3C met\n in Macon.".utf8.count)
        // The alias's words quote the page's word; the lexicon's phonemes still land on their word.
        let aliasRange = try #require(segment.text.utf8Range(of: "Web"))
        let quote = segment.quoteMap.quoteRange(forText: aliasRange)
        #expect(String("The  W3C met\n in Macon.".utf8Slice(quote)) == "W3C")
        #expect(segment.phonemes.map { String(segment.text.utf8Slice($0.range)) } == ["Macon"])
    }
}

extension String {
    /// The UTF-8 offsets of the first occurrence of `word`.
    func utf8Range(of word: String) -> Range<Int>? {
        guard let range = range(of: word) else { return nil }
        return utf8.distance(from: startIndex, to: range.lowerBound)..<utf8.distance(from: startIndex, to: range.upperBound)
    }
}
