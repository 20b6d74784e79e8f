// SPDX-License-Identifier: GPL-3.0-or-later
/// The sentence being spoken, broken into lines for the display with the word being heard highlighted
/// and the rest of the sentence shaded.
///
/// White space in the page's text (newlines, indentation) is shown as single spaces; a word wider
/// than the line, as in Chinese or Japanese text without spaces, is cut at character boundaries.
enum SentenceLayout {
    static func lines(_ sentence: String, word: Range<String.Index>?, columns: Int) -> [StyledLine] {
        guard columns > 0 else { return [] }
        var lines: [StyledLine] = []
        var line: [Span] = []
        var lineWidth = 0
        for token in tokens(sentence, word: word) {
            let tokenWidth = token.spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
            let separator = token.followsSpace && lineWidth > 0 ? 1 : 0
            if lineWidth + separator + tokenWidth <= columns {
                if separator == 1 { line.append(Span(text: " ", style: .shaded)) }
                line += token.spans
                lineWidth += separator + tokenWidth
                continue
            }
            if tokenWidth <= columns {
                if lineWidth > 0 { lines.append(StyledLine(line)) }
                line = token.spans
                lineWidth = tokenWidth
                continue
            }
            // Wider than a line: fill this line, then go on character by character.
            for span in token.spans {
                for character in span.text {
                    let width = DisplayWidth.of(character)
                    if lineWidth + width > columns {
                        lines.append(StyledLine(line))
                        line = []
                        lineWidth = 0
                    }
                    line.append(Span(text: String(character), style: span.style))
                    lineWidth += width
                }
            }
        }
        if !line.isEmpty { lines.append(StyledLine(merged(line))) }
        return lines.map { StyledLine(merged($0.spans)) }
    }

    /// The index of the line that holds the highlighted word, if any.
    static func lineOfWord(in lines: [StyledLine]) -> Int? {
        lines.firstIndex { $0.spans.contains { $0.style == .highlight } }
    }

    private struct Token {
        var spans: [Span]
        var followsSpace: Bool
    }

    /// The sentence's runs of non-space characters, each split where the highlight starts or ends.
    private static func tokens(_ sentence: String, word: Range<String.Index>?) -> [Token] {
        var tokens: [Token] = []
        var current: [Span] = []
        var followsSpace = false
        var index = sentence.startIndex
        while index < sentence.endIndex {
            let character = sentence[index]
            if character.isWhitespace {
                if !current.isEmpty { tokens.append(Token(spans: current, followsSpace: followsSpace)) }
                current = []
                followsSpace = true
            } else {
                let style: TextStyle = word?.contains(index) == true ? .highlight : .shaded
                if let last = current.last, last.style == style {
                    current[current.count - 1].text.append(character)
                } else {
                    current.append(Span(text: String(character), style: style))
                }
            }
            index = sentence.index(after: index)
        }
        if !current.isEmpty { tokens.append(Token(spans: current, followsSpace: followsSpace)) }
        return tokens
    }

    /// Neighbouring spans of one style joined, so each line carries few escape sequences.
    private static func merged(_ spans: [Span]) -> [Span] {
        var result: [Span] = []
        for span in spans {
            if let last = result.last, last.style == span.style {
                result[result.count - 1].text += span.text
            } else {
                result.append(span)
            }
        }
        return result
    }
}
