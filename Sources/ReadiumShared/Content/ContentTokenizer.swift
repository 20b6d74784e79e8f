/// Splits text elements into one element per utterance (a sentence by default), for reading aloud.
///
/// Each segment of a `TextContentElement` is tokenized with the tokenizer of its language; every unit
/// becomes a `TextContentElement` with a single segment, the element's role, and a locator narrowed to
/// the unit: `text.highlight` is the unit, `before`/`after` up to `contextLength` characters around it
/// (taken from the segment, then from the segment's own context). Other elements pass unchanged.
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
        var result: [any ContentElement] = []
        for segment in textElement.segments {
            let language = segment.language ?? defaultLanguage
            let text = segment.text
            for range in factory(unit, language).tokenize(text) {
                var locator = segment.locator
                let before = String(text[..<range.lowerBound])
                let after = String(text[range.upperBound...])
                locator.text = Locator.Text(
                    before: contextSuffix((segment.locator.text.before ?? "") + before),
                    highlight: String(text[range]),
                    after: contextPrefix(after + (segment.locator.text.after ?? ""))
                )
                let utterance = TextContentElement.Segment(locator: locator, text: String(text[range]), language: language)
                result.append(TextContentElement(locator: locator, role: textElement.role, segments: [utterance]))
            }
        }
        return result
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
        String(drop(while: \.isWhitespace))
    }

    var trimmingTrailingWhitespace: String {
        var copy = Substring(self)
        while copy.last?.isWhitespace == true { copy.removeLast() }
        return String(copy)
    }
}
