// SPDX-License-Identifier: GPL-3.0-or-later
extension ContentTokenizer {
    /// The utterances of `element` from the one `locator` points at, to resume exactly where a
    /// previous run stopped; all of them when no utterance matches.
    ///
    /// An utterance matches when its highlight equals the locator's (runs of white space count as one
    /// space, so a locator quoting the page and one quoting the reading text both match); among several,
    /// the one with the same `before` context wins, else one whose context agrees (quoted at another
    /// length: the longer ends with the shorter, which is at least `contextLength` characters).
    public func tokenize(_ element: any ContentElement, resumingAt locator: Locator) -> [any ContentElement] {
        let utterances = tokenize(element)
        guard let highlight = locator.text.highlight.map(Self.collapsed), !highlight.isEmpty else { return utterances }
        let candidates = utterances.indices.filter { utterances[$0].locator.text.highlight.map(Self.collapsed) == highlight }
        let before = locator.text.before.map(Self.collapsed)
        let start = candidates.first { utterances[$0].locator.text.before.map(Self.collapsed) == before }
            ?? candidates.first { agree(utterances[$0].locator.text.before.map(Self.collapsed), before) }
            ?? candidates.first
        guard let start else { return utterances }
        return Array(utterances[start...])
    }
}

extension ContentTokenizer {
    /// Whether two `before` contexts of one place may be quotes of different lengths.
    private func agree(_ one: String?, _ other: String?) -> Bool {
        guard let one, let other else { return false }
        let (shorter, longer) = one.count <= other.count ? (one, other) : (other, one)
        return shorter.count >= contextLength && longer.hasSuffix(shorter)
    }

    /// `text` with runs of white space collapsed to one space and the ends trimmed.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
