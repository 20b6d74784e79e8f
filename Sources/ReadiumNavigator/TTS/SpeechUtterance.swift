import ReadiumShared

/// One utterance of a publication read aloud: its text, where it is, and the language it is in.
///
/// Readium's `PublicationSpeechSynthesizer.Utterance`. `locator.text.highlight` is `text`.
public struct SpeechUtterance: Sendable, Hashable {
    public var text: String
    public var locator: Locator
    /// The language declared for the text (`lang`/`xml:lang`, inherited), or the fallbacks.
    public var language: Language?
    public var role: ContentRole

    public init(text: String, locator: Locator, language: Language?, role: ContentRole = .body) {
        self.text = text
        self.locator = locator
        self.language = language
        self.role = role
    }

    /// The utterance's locator narrowed to `range` of `text`: the word as `text.highlight`, with
    /// `before` and `after` moved to the word's sides (up to `contextLength` characters).
    public func locator(forWordAt range: Range<String.Index>, contextLength: Int = 50) -> Locator {
        var word = locator
        let before = (locator.text.before.map { $0 + (needsSpace($0, text.first) ? " " : "") } ?? "") + text[..<range.lowerBound]
        let after = String(text[range.upperBound...]) + (locator.text.after.map { (needsSpace(text.last, $0) ? " " : "") + $0 } ?? "")
        let beforeSuffix = String(before.suffix(contextLength))
        let afterPrefix = String(after.prefix(contextLength))
        word.text = Locator.Text(
            before: beforeSuffix.isEmpty ? nil : beforeSuffix,
            highlight: String(text[range]),
            after: afterPrefix.isEmpty ? nil : afterPrefix
        )
        return word
    }

    private func needsSpace(_ left: String, _ right: Character?) -> Bool {
        guard let last = left.last, let right else { return false }
        return !last.isWhitespace && !right.isWhitespace
    }

    private func needsSpace(_ left: Character?, _ right: String) -> Bool {
        guard let left, let first = right.first else { return false }
        return !left.isWhitespace && !first.isWhitespace && !first.isPunctuation
    }
}
