// SPDX-License-Identifier: GPL-3.0-or-later
/// The whole text of the element a text locator selects (its `textContent`), and where the quote read
/// by the carrier's `quoteMap` begins in it (the locator's `highlight`, but for white space at its ends).
///
/// A quote narrower than the locator's (a sentence of a paragraph, a word of a sentence) needs it: the
/// context of the narrower quote must tell its place from any other place in the element with the same
/// words, which only the element's whole text can show. Content elements, their segments, utterances
/// and narration items carry it along; it is never serialized.
public struct ElementText: Sendable, Hashable {
    /// The selected element's text, exactly as the page has it.
    public let text: String
    /// The UTF-8 offset in `text` where the quote read by the carrier's `quoteMap` begins.
    public var quoteStart: Int

    public init(text: String, quoteStart: Int) {
        self.text = text
        self.quoteStart = quoteStart
    }

    /// The quote of the part between UTF-8 offsets `range` of the quote that starts at `quoteStart`,
    /// with context enough to designate that place alone in the element (`Locator.Text.quoting`).
    public func quote(_ range: Range<Int>, contextLength: Int = 50) -> Locator.Text {
        let length = text.utf8.count
        let lower = min(max(quoteStart + range.lowerBound, 0), length)
        let upper = min(max(quoteStart + range.upperBound, lower), length)
        return .quoting(lower..<upper, of: text, within: 0..<length, contextLength: contextLength)
    }

    // Hashed by length and position only (cheap); equality compares the text last.
    public static func == (lhs: ElementText, rhs: ElementText) -> Bool {
        lhs.quoteStart == rhs.quoteStart && lhs.text.utf8.count == rhs.text.utf8.count && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(quoteStart)
        hasher.combine(text.utf8.count)
    }
}
