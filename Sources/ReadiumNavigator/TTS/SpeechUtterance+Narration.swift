// SPDX-License-Identifier: GPL-3.0-or-later
// ReadiumNavigator has a NarrationTarget of its own (a Media Overlay navigator position): this one is ReadiumShared's.
import ReadiumShared

extension SpeechUtterance {
    /// The target of the whole utterance (its element, and the UTF-8 range of the element's text it speaks).
    ///
    /// The range is the one `quoteMap`'s quote covers in `elementText`; nil (the whole element) for an image, the
    /// page's media, or an utterance whose quote is not mapped onto its element's text.
    public var narrationTarget: ReadiumShared.NarrationTarget {
        ReadiumShared.NarrationTarget(locator: locator, elementText: elementText, textRange: elementRange(forText: 0..<text.utf8.count))
    }

    /// The target of one word of it (range in `text`, as TTSWordBoundary.range).
    public func narrationTarget(forWordAt range: Range<String.Index>) -> ReadiumShared.NarrationTarget {
        let textRange = text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<text.utf8.distance(from: text.startIndex, to: range.upperBound)
        return ReadiumShared.NarrationTarget(locator: locator(forWordAt: range), elementText: elementText, textRange: elementRange(forText: textRange))
    }

    /// The UTF-8 range of `elementText.text` that the part `range` of `text` reads, when the quote map lines them up.
    private func elementRange(forText range: Range<Int>) -> Range<Int>? {
        guard let elementText, !isMedia, locator.text.highlight != nil, quoteMap.textLength == text.utf8.count else { return nil }
        let quote = quoteMap.quoteRange(forText: range)
        let lower = elementText.quoteStart + quote.lowerBound, upper = elementText.quoteStart + quote.upperBound
        guard lower >= 0, lower < upper, upper <= elementText.text.utf8.count else { return nil }
        return lower..<upper
    }
}
