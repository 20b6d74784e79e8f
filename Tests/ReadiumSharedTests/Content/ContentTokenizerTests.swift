// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct ContentTokenizerTests {
    func segment(_ text: String, _ language: String?, before: String? = nil, after: String? = nil) -> TextContentElement.Segment {
        var locations = Locator.Locations(progression: 0.25)
        locations.cssSelector = "#p1"
        let locator = Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: locations, text: Locator.Text(before: before, highlight: text, after: after))
        return TextContentElement.Segment(locator: locator, text: text, language: language.map(Language.init(code:)))
    }

    @Test func eachSentenceBecomesAnElementWithANarrowedLocator() throws {
        let paragraph = "Mr. Alden is a scholarly professor. He teaches at Stanford. Dr. Brandes agrees."
        let element = TextContentElement(locator: segment(paragraph, "en").locator, role: .quote, segments: [segment(paragraph, "en", before: "Previous paragraph.\n")])
        let utterances = ContentTokenizer().tokenize(element).compactMap { $0 as? TextContentElement }
        #expect(utterances.map(\.text) == ["Mr. Alden is a scholarly professor.", "He teaches at Stanford.", "Dr. Brandes agrees."])
        #expect(utterances.allSatisfy { $0.role == .quote && $0.segments.count == 1 })
        let middle = utterances[1].locator
        #expect(middle.text.highlight == "He teaches at Stanford.")
        #expect(middle.text.before == String("Previous paragraph.\nMr. Alden is a scholarly professor. ".suffix(50)))
        #expect(middle.text.after == " Dr. Brandes agrees.")
        #expect(middle.locations.cssSelector == "#p1")
        #expect(utterances[0].locator.text.before == "Previous paragraph.\n")
    }

    @Test func resumingAtAnUtteranceLocatorDropsTheUtterancesBeforeIt() throws {
        let paragraph = "Go on. Stop here. Go on. Stop here. End."
        let element = TextContentElement(locator: segment(paragraph, "en").locator, role: .body, segments: [segment(paragraph, "en")])
        let tokenizer = ContentTokenizer()
        let all = tokenizer.tokenize(element)
        let resumed = tokenizer.tokenize(element, resumingAt: all[3].locator)
        #expect(resumed.compactMap(\.spokenText) == ["Stop here.", "End."])
        var unknown = all[3].locator
        unknown.text.highlight = "Not in the paragraph."
        #expect(tokenizer.tokenize(element, resumingAt: unknown).count == all.count)
    }

    @Test func contextIsLimitedToFiftyCharacters() throws {
        let long = String(repeating: "word ", count: 30) + "End. Next one."
        let utterances = ContentTokenizer().tokenize(TextContentElement(locator: segment(long, "en").locator, role: .body, segments: [segment(long, "en")]))
        let last = try #require(utterances.last)
        #expect(last.locator.text.highlight == "Next one.")
        #expect((last.locator.text.before ?? "").count <= 50)
        #expect(last.locator.text.before?.hasSuffix("End. ") == true)
    }

    @Test func segmentsAreTokenizedInTheirOwnLanguageAndLonePunctuationJoinsThePreviousUtterance() throws {
        let element = TextContentElement(
            locator: segment("x", "en").locator, role: .body,
            segments: [segment("respondebat illa", "la", after: ": ἀποθανεῖν"), segment(": ", "en"), segment("ἀποθανεῖν θέλω", "grc")])
        let utterances = ContentTokenizer(defaultLanguage: Language(code: "en")).tokenize(element).compactMap { $0 as? TextContentElement }
        #expect(utterances.map(\.text) == ["respondebat illa:", "ἀποθανεῖν θέλω"])
        #expect(utterances.map { $0.segments[0].language?.code } == ["la", "grc"])
    }

    @Test func wordUnitGivesOneElementPerWord() {
        let element = TextContentElement(locator: segment("l'école est fermée", "fr").locator, role: .body, segments: [segment("l'école est fermée", "fr")])
        let words = ContentTokenizer(unit: .word).tokenize(element).compactMap { ($0 as? TextContentElement)?.text }
        #expect(words == ["l'", "école", "est", "fermée"])
    }

    @Test func nonTextElementsPassUnchanged() {
        let image = ImageContentElement(locator: Locator(href: "c.xhtml", type: "application/xhtml+xml"), embeddedLink: Link(href: "a.png"), accessibilityLabel: "A", caption: nil)
        let result = ContentTokenizer().tokenize(image)
        #expect(result.count == 1 && result[0].isSame(as: image))
    }
}
