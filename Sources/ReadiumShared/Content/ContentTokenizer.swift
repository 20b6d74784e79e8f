// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits text elements into one element per utterance (a sentence by default), for reading aloud.
///
/// Each segment of a `TextContentElement` is tokenized with the tokenizer of its language; every unit
/// becomes a `TextContentElement` with a single segment, the element's role, and a locator narrowed to
/// the unit: `text.highlight` is the page's own text the unit reads (found through the segment's
/// `quoteMap`), `before`/`after` at least `contextLength` characters of the element's text around it, more
/// where needed to tell it from the same words elsewhere in the element (`Locator.Text.quoting`). Each
/// unit carries the element's text (`elementText`) for narrower quotes still, such as words. Punctuation
/// alone at the start of a segment joins the utterance before it. Other elements pass unchanged.
/// Pure: safe to call from any thread.
public struct ContentTokenizer: Sendable {
    public var unit: TextUnit
    /// The language of segments that declare none.
    public var defaultLanguage: Language?
    public var factory: TextTokenizerFactory
    public var contextLength: Int

    public init(
        unit: TextUnit = .sentence, defaultLanguage: Language? = nil,
        factory: @escaping TextTokenizerFactory = defaultTextTokenizerFactory, contextLength: Int = 50
    ) {
        self.unit = unit
        self.defaultLanguage = defaultLanguage
        self.factory = factory
        self.contextLength = contextLength
    }

    /// The utterances of `element`; a non-text element is returned alone.
    public func tokenize(_ element: any ContentElement) -> [any ContentElement] {
        guard let textElement = element as? TextContentElement else { return [element] }
        let quoted = Self.quotedSegments(of: textElement)
        let length = quoted.text.utf8.count
        var result: [TextContentElement] = []
        // Where the last unit's quote ends in the element's text: what joins it to punctuation that follows.
        var lastQuoteEnd: Int?
        for (segment, (start, map)) in zip(textElement.segments, quoted.segments) {
            let language = segment.language ?? defaultLanguage
            let text = segment.text
            for range in factory(unit, language).tokenize(text) {
                let unitText = text[range]
                let textRange = text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<text.utf8.distance(from: text.startIndex, to: range.upperBound)
                let relative = map.quoteRange(forText: textRange)
                var (quoteRange, unitMap) = Self.trimmed((start + relative.lowerBound)..<(start + relative.upperBound), map.slice(textRange), in: quoted.text)
                defer { lastQuoteEnd = quoteRange.upperBound }
                // Punctuation left alone by a change of language (`;` after a Greek quotation) joins
                // the utterance before it instead of being spoken on its own.
                if !unitText.contains(where: { $0.isLetter || $0.isNumber }), range.lowerBound == firstVisible(text),
                   let previousEnd = lastQuoteEnd, var previous = result.popLast(),
                   let previousStart = previous.elementText?.quoteStart, previousEnd <= quoteRange.lowerBound {
                    let gapQuote = quoted.text.utf8Slice(previousEnd..<quoteRange.lowerBound)
                    let gap = gapQuote.first?.isWhitespace == true ? " " : ""
                    var joined = previous.segments[0].quoteMap
                    joined.append(textLength: gap.utf8.count, quoteLength: gapQuote.utf8.count, isVerbatim: false)
                    joined.append(unitMap)
                    quoteRange = previousStart..<quoteRange.upperBound
                    previous.segments[0].phonemes += segment.phonemes.sliced(to: textRange).shifted(by: previous.segments[0].text.utf8.count + gap.utf8.count)
                    previous.segments[0].text += gap + unitText
                    previous.segments[0].quoteMap = joined
                    previous.locator.text = .quoting(quoteRange, of: quoted.text, within: 0..<length, contextLength: contextLength)
                    previous.segments[0].locator = previous.locator
                    result.append(previous)
                    continue
                }
                var locator = segment.locator
                locator.text = .quoting(quoteRange, of: quoted.text, within: 0..<length, contextLength: contextLength)
                let elementText = ElementText(text: quoted.text, quoteStart: quoteRange.lowerBound)
                var utterance = TextContentElement.Segment(locator: locator, text: String(unitText), language: language,
                                                           languageSource: segment.language == nil ? .publication : segment.languageSource,
                                                           quoteMap: unitMap, elementText: elementText)
                utterance.phonemes = segment.phonemes.sliced(to: textRange)
                result.append(TextContentElement(locator: locator, role: textElement.role, segments: [utterance], elementText: elementText))
            }
        }
        return result
    }

    /// The element's text the segments quote, and where each segment's quote starts in it with the map
    /// that reads it. Segments that carry the element's text give it; for others (made by hand) it is
    /// made of their context and quotes (or their own text, when their map does not fit their quote).
    static func quotedSegments(of element: TextContentElement) -> (text: String, segments: [(start: Int, map: TextQuoteMap)]) {
        let given = element.segments.compactMap { segment in
            segment.quoteMap.textLength == segment.text.utf8.count ? segment.elementText : nil
        }
        if given.count == element.segments.count, let first = given.first, given.allSatisfy({ $0.text == first.text }) {
            return (first.text, zip(element.segments, given).map { ($1.quoteStart, $0.quoteMap) })
        }
        var text = element.segments.first?.locator.text.before ?? ""
        var segments: [(start: Int, map: TextQuoteMap)] = []
        for segment in element.segments {
            let highlight = segment.locator.text.highlight
            let fits = segment.quoteMap.textLength == segment.text.utf8.count && segment.quoteMap.quoteLength == highlight?.utf8.count
            segments.append((text.utf8.count, fits ? segment.quoteMap : .verbatim(segment.text)))
            text += fits ? highlight ?? "" : segment.text
        }
        text += element.segments.last?.locator.text.after ?? ""
        return (text, segments)
    }

    /// `range` of `text` and its map without the white space at the ends of the quote, where the map
    /// allows (white space that stands for no text, or part of a formula's text); as they are otherwise.
    static func trimmed(_ range: Range<Int>, _ map: TextQuoteMap, in text: String) -> (Range<Int>, TextQuoteMap) {
        let inner = text.trimmingWhiteSpace(of: range)
        guard !inner.isEmpty, let trimmedMap = map.trimmingQuote(leading: inner.lowerBound - range.lowerBound, trailing: range.upperBound - inner.upperBound) else {
            return (range, map)
        }
        return (inner, trimmedMap)
    }

    private func firstVisible(_ text: String) -> String.Index {
        text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    }
}
