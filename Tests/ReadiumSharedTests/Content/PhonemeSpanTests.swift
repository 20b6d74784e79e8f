// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

/// Phoneme spans follow their words through sentence splitting, removed note references and aliases.
@Suite struct PhonemeSpanTests {
    func element(_ text: String, phonemes: [(String, String)]) -> TextContentElement {
        var locations = Locator.Locations(progression: 0)
        locations.cssSelector = "#p1"
        let locator = Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: locations, text: Locator.Text(highlight: text))
        var segment = TextContentElement.Segment(locator: locator, text: text, language: Language(code: "en"))
        segment.phonemes = phonemes.map { word, ipa in
            let range = text.range(of: word)!
            return PhonemeSpan(range: text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<text.utf8.distance(from: text.startIndex, to: range.upperBound), phonemes: ipa)
        }
        return TextContentElement(locator: locator, role: .body, segments: [segment])
    }

    func spoken(_ segment: TextContentElement.Segment) -> [String] {
        segment.phonemes.map { "\(segment.text.utf8Slice($0.range))=\($0.phonemes)" }
    }

    @Test func eachSentenceKeepsTheSpansOfItsOwnWords() {
        let paragraph = element("It lies 30° N. of here. Macon is west.", phonemes: [("30°", "ˈθɜrti dɪˈgriz"), ("N.", "nɔrθ"), ("Macon", "ˈmeɪkən")])
        let units = ContentTokenizer().tokenize(paragraph).compactMap { ($0 as? TextContentElement)?.segments.first }
        #expect(units.map(\.text) == ["It lies 30° N. of here.", "Macon is west."])
        #expect(units.map(spoken) == [["30°=ˈθɜrti dɪˈgriz", "N.=nɔrθ"], ["Macon=ˈmeɪkən"]])
    }

    @Test func removingANoteReferenceMovesTheSpansAfterIt() {
        var paragraph = element("The Savannah1 river and Macon.", phonemes: [("Savannah", "səˈvænə"), ("Macon", "ˈmeɪkən")])
        paragraph.segments[0].inlineRuns = [.init(role: .noteRef, range: 12..<13)]
        let spoken = paragraph.removingInlineRuns(withRoles: ["noteref"])
        #expect(spoken.text == "The Savannah river and Macon.")
        #expect(self.spoken(spoken.segments[0]) == ["Savannah=səˈvænə", "Macon=ˈmeɪkən"])
    }

    @Test func aSpanThatLosesTextIsDropped() {
        let spans = [PhonemeSpan(range: 0..<4, phonemes: "a"), PhonemeSpan(range: 6..<9, phonemes: "b")]
        #expect(spans.removing([2..<3]) == [PhonemeSpan(range: 5..<8, phonemes: "b")])
        #expect(spans.sliced(to: 5..<9) == [PhonemeSpan(range: 1..<4, phonemes: "b")])
    }

    @Test func anAliasStandsForItsWordsQuote() throws {
        // "The  W3C met": W3C (bytes 5..<8 of the text "The W3C met" after collapsing) read as an alias.
        let (text, map) = TextQuoteMap.collapsingWhitespace(of: "The  W3C met")
        #expect(text == "The W3C met")
        let replaced = try #require(map.replacingText(4..<7, withTextLength: "World Wide Web".utf8.count))
        #expect(replaced.textLength == "The World Wide Web met".utf8.count)
        #expect(replaced.quoteLength == "The  W3C met".utf8.count)
        #expect(replaced.quoteRange(forText: 10..<14) == 5..<8, "a word of the alias quotes the page's word")
        #expect(replaced.quoteRange(forText: 19..<22) == 9..<12, "the text after it keeps its own quote")
        #expect(replaced.quoteRange(forText: 0..<3) == 0..<3)
    }
}
