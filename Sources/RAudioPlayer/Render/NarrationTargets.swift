// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// What a clip of a render points at in its content document: the utterance's element and the part of its
/// text spoken. Stands in for `SpeechUtterance.narrationTarget` and `narrationTarget(forWordAt:)` until
/// ReadiumNavigator has them (issue 34's EPUB writer): then these two functions call them.
enum NarrationTargets {
    /// The whole utterance: its locator, its element's text and the UTF-8 range of that text it reads.
    static func target(of utterance: SpeechUtterance) -> NarrationTarget {
        target(of: utterance, textRange: 0..<utterance.text.utf8.count, locator: utterance.locator)
    }

    /// The word at `range` of the utterance's text (`TTSWordBoundary.range`).
    static func target(of utterance: SpeechUtterance, wordAt range: Range<String.Index>) -> NarrationTarget {
        let utf8 = utterance.text.utf8
        let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
        let upper = utf8.distance(from: utf8.startIndex, to: range.upperBound)
        return target(of: utterance, textRange: lower..<upper, locator: utterance.locator(forWordAt: range))
    }

    /// `elementText.quoteStart + quoteMap.quoteRange(forText:)`, when the utterance knows its element's text
    /// and its quote map covers its text; else no range (the whole element).
    private static func target(of utterance: SpeechUtterance, textRange: Range<Int>, locator: Locator) -> NarrationTarget {
        guard let elementText = utterance.elementText, !utterance.text.isEmpty, utterance.quoteMap.textLength == utterance.text.utf8.count else {
            return NarrationTarget(locator: locator, elementText: utterance.elementText, textRange: nil)
        }
        let quote = utterance.quoteMap.quoteRange(forText: textRange)
        let length = elementText.text.utf8.count
        let lower = min(max(elementText.quoteStart + quote.lowerBound, 0), length)
        let upper = min(max(elementText.quoteStart + quote.upperBound, lower), length)
        return NarrationTarget(locator: locator, elementText: elementText, textRange: lower..<upper)
    }
}
