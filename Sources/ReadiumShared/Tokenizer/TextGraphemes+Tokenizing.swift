// SPDX-License-Identifier: GPL-3.0-or-later
/// What the tokenizers share, on characters by position: marks, trimming and paragraph breaks.
extension TextGraphemes {
    /// Whether character `index` is the single scalar that `mark` accepts.
    func isMark(_ index: Int, _ mark: (UInt32) -> Bool) -> Bool {
        guard let value = singleScalar(index) else { return false }
        return mark(value)
    }

    /// `range` without the white space at its ends (as `trimmedRange(_:in:)`); nil when nothing is left.
    func trimmed(_ range: Range<Int>) -> Range<Int>? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(lower) { lower += 1 }
        while upper > lower, isWhitespace(upper - 1) { upper -= 1 }
        return lower < upper ? lower..<upper : nil
    }

    /// Where the paragraph break at character `index` ends (as `ParagraphTokenizer.paragraphBreakEnd`):
    /// after a U+2029, or after the white space of a run holding two line breaks or more; else nil.
    func paragraphBreakEnd(at index: Int) -> Int? {
        if singleScalar(index) == 0x2029 { return index + 1 }
        guard isNewline(index) else { return nil }
        var cursor = index + 1
        var newlines = 1
        while cursor < count, isWhitespace(cursor) {
            if isNewline(cursor) { newlines += 1 }
            cursor += 1
        }
        return newlines >= 2 ? cursor : nil
    }
}
