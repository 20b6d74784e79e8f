/// Splits text elements into one element per utterance (a sentence by default), for reading aloud.
///
/// Each segment of a `TextContentElement` is tokenized with the tokenizer of its language; every unit
/// becomes a `TextContentElement` with a single segment, the element's role, and a locator narrowed to
/// the unit: `text.highlight` is the unit, `before`/`after` up to `contextLength` characters around it
/// (taken from the segment, then from the segment's own context). Punctuation alone at the start of
/// a segment joins the utterance before it. Other elements pass unchanged.
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
        var result: [TextContentElement] = []
        for segment in textElement.segments {
            let language = segment.language ?? defaultLanguage
            let text = segment.text
            for range in factory(unit, language).tokenize(text) {
                let unitText = text[range]
                // Punctuation left alone by a change of language (`;` after a Greek quotation) joins
                // the utterance before it instead of being spoken on its own.
                if !unitText.contains(where: { $0.isLetter || $0.isNumber }), range.lowerBound == firstVisible(text),
                   var previous = result.popLast() {
                    let gap = previous.locator.text.after?.first?.isWhitespace == true ? " " : ""
                    previous.segments[0].text += gap + text[..<range.upperBound].trimmingLeadingWhitespace
                    previous.locator.text.highlight = previous.segments[0].text
                    previous.locator.text.after = contextPrefix(String(text[range.upperBound...]) + (segment.locator.text.after ?? ""))
                    previous.segments[0].locator = previous.locator
                    result.append(previous)
                    continue
                }
                var locator = segment.locator
                let before = String(text[..<range.lowerBound])
                let after = String(text[range.upperBound...])
                locator.text = Locator.Text(
                    before: contextSuffix((segment.locator.text.before ?? "") + before),
                    highlight: String(unitText),
                    after: contextPrefix(after + (segment.locator.text.after ?? ""))
                )
                let utterance = TextContentElement.Segment(locator: locator, text: String(unitText), language: language)
                result.append(TextContentElement(locator: locator, role: textElement.role, segments: [utterance]))
            }
        }
        return result
    }

    private func firstVisible(_ text: String) -> String.Index {
        text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    }

    private func contextSuffix(_ text: String) -> String? {
        let suffix = String(text.suffix(contextLength)).trimmingLeadingWhitespace
        return suffix.isEmpty ? nil : suffix
    }

    private func contextPrefix(_ text: String) -> String? {
        let prefix = String(text.prefix(contextLength)).trimmingTrailingWhitespace
        return prefix.isEmpty ? nil : prefix
    }
}

extension String {
    var trimmingLeadingWhitespace: String {
        Substring(self).trimmingLeadingWhitespace
    }

    var trimmingTrailingWhitespace: String {
        var copy = Substring(self)
        while copy.last?.isWhitespace == true { copy.removeLast() }
        return String(copy)
    }
}

extension Substring {
    var trimmingLeadingWhitespace: String {
        String(drop(while: \.isWhitespace))
    }
}
