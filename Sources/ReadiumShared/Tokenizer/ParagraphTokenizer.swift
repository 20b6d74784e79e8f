// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits text into paragraphs: parts separated by a blank line or a paragraph separator (U+2029).
///
/// A single line break (`<br>` in a poem) stays inside its paragraph.
public struct ParagraphTokenizer: TextTokenizer {
    public init() {}

    public func tokenize(_ text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if let end = Self.paragraphBreakEnd(in: text, at: index) {
                if let range = trimmedRange(start..<index, in: text) { ranges.append(range) }
                start = end
                index = end
            } else {
                index = text.index(after: index)
            }
        }
        if let range = trimmedRange(start..<text.endIndex, in: text) { ranges.append(range) }
        return ranges
    }

    /// Where the paragraph break starting at `index` ends, or nil when there is none there.
    static func paragraphBreakEnd(in text: String, at index: String.Index) -> String.Index? {
        if text[index] == "\u{2029}" { return text.index(after: index) }
        guard text[index].isNewline else { return nil }
        var cursor = text.index(after: index)
        var newlines = 1
        while cursor < text.endIndex, text[cursor].isTokenizerWhitespace {
            if text[cursor].isNewline { newlines += 1 }
            cursor = text.index(after: cursor)
        }
        return newlines >= 2 ? cursor : nil
    }
}
