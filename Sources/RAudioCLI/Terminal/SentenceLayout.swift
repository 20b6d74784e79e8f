// SPDX-License-Identifier: GPL-3.0-or-later
/// The sentence being spoken, broken into lines for the display with the word being heard highlighted
/// and the rest of the sentence shaded.
///
/// White space in the page's text (newlines, indentation) is shown as single spaces; a word wider
/// than the line, as in Chinese or Japanese text without spaces, is cut at character boundaries where
/// the line-breaking rules (`SentenceLayout+LineBreaking.swift`, kinsoku) allow one.
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
            // Wider than a line (Chinese or Japanese text has no spaces): fill this line, then go on,
            // breaking between characters where the line-breaking rules allow.
            if separator == 1 && lineWidth + separator < columns {
                line.append(Span(text: " ", style: .shaded))
                lineWidth += 1
            }
            let characters = token.spans.flatMap { span in span.text.map { (character: $0, style: span.style) } }
            let plain = characters.map(\.character)
            var start = 0
            while start < characters.count {
                var end = start
                var width = lineWidth
                while end < characters.count, width + DisplayWidth.of(characters[end].character) <= columns {
                    width += DisplayWidth.of(characters[end].character)
                    end += 1
                }
                var cut = end
                if end < characters.count {
                    cut = breakIndex(in: plain, from: start, before: end)
                    if cut == start && lineWidth > 0 {
                        // Nothing of the token can end this line: it starts on the next one.
                        lines.append(StyledLine(line))
                        (line, lineWidth) = ([], 0)
                        continue
                    }
                    if cut == start { cut = max(end, start + 1) }  // no allowed break: cut where the line is full
                }
                for (character, style) in characters[start..<cut] {
                    line.append(Span(text: String(character), style: style))
                    lineWidth += DisplayWidth.of(character)
                }
                if cut < characters.count {
                    lines.append(StyledLine(line))
                    (line, lineWidth) = ([], 0)
                }
                start = cut
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
