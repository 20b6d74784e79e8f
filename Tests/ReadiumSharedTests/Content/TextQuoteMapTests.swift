// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct TextQuoteMapTests {
    /// The quote a text range maps to, as a string of `quote`.
    func quoted(_ map: TextQuoteMap, _ text: String, _ quote: String, _ part: String) throws -> String {
        let start = try #require(text.range(of: part))
        let lower = text.utf8.distance(from: text.startIndex, to: start.lowerBound)
        let range = map.quoteRange(forText: lower..<(lower + part.utf8.count))
        return String(quote.utf8Slice(range))
    }

    @Test func collapsingWhiteSpaceMapsEachWordToThePagesCharacters() throws {
        let page = "\n\t\tI\n\t\t\t\tcould tell  the clever men\n"
        let (text, map) = TextQuoteMap.collapsingWhitespace(of: page)
        #expect(text == "I could tell the clever men")
        #expect(map.textLength == text.utf8.count)
        #expect(map.quoteLength == page.utf8.count)
        #expect(try quoted(map, text, page, "I") == "I")
        #expect(try quoted(map, text, page, "I could") == "I\n\t\t\t\tcould")
        #expect(try quoted(map, text, page, "tell the") == "tell  the")
        #expect(try quoted(map, text, page, "clever men") == "clever men")
    }

    @Test func textStandingForAQuoteAsAWholeMapsToAllOfIt() throws {
        var map = TextQuoteMap.verbatim("x = ")
        map.append(textLength: "one half".utf8.count, quoteLength: "<1/2>".utf8.count, isVerbatim: false)
        let text = "x = one half"
        let quote = "x = <1/2>"
        #expect(try quoted(map, text, quote, "half") == "<1/2>")
        #expect(try quoted(map, text, quote, "= one") == "= <1/2>")
    }

    @Test func removedTextKeepsItsQuoteReadByNothing() throws {
        let quote = "The sea12 and"
        let map = TextQuoteMap.verbatim(quote).removingText([7..<9])
        let text = "The sea and"
        #expect(map.textLength == text.utf8.count)
        #expect(map.quoteLength == quote.utf8.count)
        #expect(try quoted(map, text, quote, "sea and") == "sea12 and")
    }

    @Test func trimmingQuoteTakesOnlyQuoteThatStandsForNoTextOrAsAWhole() {
        var map = TextQuoteMap()
        map.append(textLength: 0, quoteLength: 3, isVerbatim: false)   // indentation
        map.append(textLength: 5, quoteLength: 5, isVerbatim: true)    // "Hello"
        map.append(textLength: 4, quoteLength: 9, isVerbatim: false)   // a formula, white space around it
        let trimmed = map.trimmingQuote(leading: 3, trailing: 2)
        #expect(trimmed?.textLength == 9)
        #expect(trimmed?.quoteLength == 12)
        #expect(map.trimmingQuote(leading: 4, trailing: 0) == nil, "cuts into the verbatim word")
        #expect(TextQuoteMap.verbatim("Hi ").trimmingQuote(leading: 0, trailing: 1) == nil)
    }
}

@Suite struct LocatorQuoteTests {
    func range(of part: String, in text: String, occurrence: Int = 1) -> Range<Int> {
        var search = text.startIndex..<text.endIndex
        var found = text.range(of: part, range: search)!
        for _ in 1..<occurrence {
            search = found.upperBound..<text.endIndex
            found = text.range(of: part, range: search)!
        }
        let lower = text.utf8.distance(from: text.startIndex, to: found.lowerBound)
        return lower..<(lower + part.utf8.count)
    }

    @Test func quoteIsThePagesTextTrimmedWithContextInsideTheElement() {
        let page = "Before. <p>  Hello\n   world.  </p> After."
        let element = range(of: "  Hello\n   world.  ", in: page)
        let quote = Locator.Text.quoting(element, of: page, within: element)
        #expect(quote.highlight == "Hello\n   world.")
        #expect(quote.before == nil)
        #expect(quote.after == nil)
        let word = Locator.Text.quoting(range(of: "world", in: page), of: page, within: element, contextLength: 5)
        #expect(word == Locator.Text(before: "o\n   ", highlight: "world", after: "."))
    }

    @Test func contextGrowsUntilTheFirstMatchIsThisPlace() {
        let line = "one, two! one, two! and you are off. "
        let page = line + line + line
        let bounds = 0..<page.utf8.count
        let third = range(of: "two", in: page, occurrence: 6)
        let quote = Locator.Text.quoting(third, of: page, within: bounds, contextLength: 4)
        let whole = (quote.before ?? "") + (quote.highlight ?? "") + (quote.after ?? "")
        let first = page.range(of: whole)!
        #expect(page.utf8.distance(from: page.startIndex, to: first.lowerBound) + (quote.before ?? "").utf8.count == third.lowerBound)
        #expect((quote.before ?? "").count > 4, "the context had to grow")
        // Where 4 characters tell the place, they are all there is.
        let unique = Locator.Text.quoting(range(of: "off", in: page), of: page, within: bounds, contextLength: 4)
        #expect(unique.before == "are ")
    }

    @Test func elementTextQuotesAWordOfASentenceInItsElement() {
        let page = "A lad, a lad is the lad."
        let elementText = ElementText(text: page, quoteStart: range(of: "a lad is", in: page).lowerBound)
        let quote = elementText.quote(2..<5, contextLength: 2)   // "lad" of "a lad is"
        let whole = (quote.before ?? "") + "lad" + (quote.after ?? "")
        #expect(quote.highlight == "lad")
        #expect(page.range(of: whole).map { page.utf8.distance(from: page.startIndex, to: $0.lowerBound) + (quote.before ?? "").utf8.count } == range(of: "lad", in: page, occurrence: 2).lowerBound)
    }
}
