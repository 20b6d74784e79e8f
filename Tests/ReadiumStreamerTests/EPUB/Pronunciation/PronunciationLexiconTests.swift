// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// PLS lexicons: reading their entries, alphabets and mistakes, and finding their graphemes in text.
@Suite struct PronunciationLexiconTests {
    func parse(_ body: String, alphabet: String? = "ipa", warnings: inout [ParsingWarning]) throws -> PronunciationLexicon? {
        let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <lexicon version="1.0" \(alphabet.map { "alphabet=\"\($0)\"" } ?? "") xml:lang="en" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon">\(body)</lexicon>
        """
        return PronunciationLexicon.parse(try XMLDocument(string: xml, href: "EPUB/lexicon/en.pls"), fallbackLanguage: nil, warnings: &warnings)
    }

    @Test func phonemesAliasesAndXSAMPAAreReadAsIPAOrText() throws {
        var warnings: [ParsingWarning] = []
        let lexicon = try #require(try parse("""
        <lexeme><grapheme>tomato</grapheme><phoneme>təˈmeɪtoʊ</phoneme></lexeme>
        <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
        <lexeme><grapheme>thirty</grapheme><phoneme alphabet="x-sampa">"T3`ti</phoneme></lexeme>
        <lexeme><grapheme>colour</grapheme><grapheme>color</grapheme><phoneme>ˈkʌlər</phoneme></lexeme>
        """, warnings: &warnings))
        #expect(warnings.isEmpty)
        #expect(lexicon.language?.code == "en")
        let found = lexicon.matches(in: "A tomato, the W3C, thirty and a color.").map(\.pronunciation)
        #expect(found == [.phonemes("təˈmeɪtoʊ"), .alias("World Wide Web Consortium"), .phonemes("ˈθɝti"), .phonemes("ˈkʌlər")])
    }

    @Test func graphemesMatchWholeWordsAndACapitalizedFirstLetter() throws {
        var warnings: [ParsingWarning] = []
        let lexicon = try #require(try parse("""
        <lexeme><grapheme>bauxite</grapheme><phoneme>ˈbɔksaɪt</phoneme></lexeme>
        <lexeme><grapheme>geol.</grapheme><phoneme>ˌdʒiəˈlɒdʒɪˌkæl</phoneme></lexeme>
        <lexeme><grapheme>Louis</grapheme><phoneme>ˈluiz</phoneme></lexeme>
        <lexeme><grapheme>Louisville</grapheme><phoneme>ˈluiˌvɪl</phoneme></lexeme>
        """, warnings: &warnings))
        let text = "Bauxite and bauxites; State Geol. Survey in Louisville, St Louis."
        let words = lexicon.matches(in: text).map { String(text[$0.range]) }
        #expect(words == ["Bauxite", "Geol.", "Louisville", "Louis"])
    }

    @Test func unknownAlphabetsAndEmptyEntriesAreWarnedWithFileAndEntry() throws {
        var warnings: [ParsingWarning] = []
        let lexicon = try #require(try parse("""
        <lexeme><grapheme>kali</grapheme><phoneme alphabet="x-klingon">kk</phoneme></lexeme>
        <lexeme><grapheme>Coosa</grapheme></lexeme>
        <lexeme><grapheme>cubeb</grapheme><phoneme alphabet="x-sampa">kju:b@b ǃ</phoneme></lexeme>
        <lexeme><grapheme>Dooly</grapheme><phoneme>ˈduli</phoneme></lexeme>
        """, warnings: &warnings))
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.source == "EPUB/lexicon/en.pls" })
        #expect(warnings.map(\.path) == ["lexeme[1] (kali)", "lexeme[2] (Coosa)", "lexeme[3] (cubeb)"])
        #expect(warnings[0].message.contains("x-klingon"))
        #expect(lexicon.matches(in: "kali Coosa cubeb Dooly").map(\.pronunciation) == [.phonemes("ˈduli")])
    }

    @Test func aDocumentThatIsNotALexiconIsWarnedAndIgnored() throws {
        var warnings: [ParsingWarning] = []
        let document = try XMLDocument(string: "<html xmlns=\"http://www.w3.org/1999/xhtml\"/>", href: "EPUB/lexicon/en.pls")
        #expect(PronunciationLexicon.parse(document, fallbackLanguage: nil, warnings: &warnings) == nil)
        #expect(warnings.map(\.source) == ["EPUB/lexicon/en.pls"])
    }

    @Test func xSAMPAConvertsLongestSymbolsFirst() {
        #expect(XSAMPA.ipa("r\\`") == "ɻ")
        #expect(XSAMPA.ipa("\"{p@l") == "ˈæpəl")
        #expect(XSAMPA.ipa("tS@`tS") == "tʃɚtʃ")
        #expect(XSAMPA.ipa("k#") == nil)
    }
}
