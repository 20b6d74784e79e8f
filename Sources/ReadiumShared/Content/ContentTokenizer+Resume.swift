extension ContentTokenizer {
    /// The utterances of `element` from the one `locator` points at, to resume exactly where a
    /// previous run stopped; all of them when no utterance matches.
    ///
    /// An utterance matches when its highlight equals the locator's; among several, the one with the
    /// same `before` context wins.
    public func tokenize(_ element: any ContentElement, resumingAt locator: Locator) -> [any ContentElement] {
        let utterances = tokenize(element)
        guard let highlight = locator.text.highlight, !highlight.isEmpty else { return utterances }
        let candidates = utterances.indices.filter { utterances[$0].locator.text.highlight == highlight }
        let start = candidates.first { utterances[$0].locator.text.before == locator.text.before } ?? candidates.first
        guard let start else { return utterances }
        return Array(utterances[start...])
    }
}
