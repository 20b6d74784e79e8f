// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits text into sentences with rules of its own, aware of the language's abbreviations.
///
/// A sentence ends at `.`, `!`, `?`, `…` (and the Arabic `؟`, Urdu `۔`, Hebrew `׃`, Devanagari `।` `॥`)
/// followed by whitespace, after any closing quotes and brackets (a French `»` may follow a space). It
/// does not end when the next sentence would start with a lowercase letter (`« Va ! » dit-il.`,
/// `etc. and`), after an abbreviation that precedes a name or number (`Mr.`, `Dr.`, `e.g.`, `M.`,
/// `Mme`, `No. 5`), after an initial (`J. R. R. Tolkien`), nor inside numbers (`3.14`). An ellipsis ends
/// a sentence only when an uppercase letter follows. CJK full stops (`。！？`) end a sentence without a
/// following space. A blank line always ends one. Punctuation alone joins the sentence before it.
///
/// Works on the text's characters by position (`TextGraphemes`: UTF-8 offsets and first scalars), so
/// that the walk makes no `Character` values and hashes nothing but a possible abbreviation.
public struct SentenceTokenizer: TextTokenizer {
    public let language: Language?
    let abbreviations: SentenceAbbreviations

    public init(language: Language?) {
        self.language = language
        self.abbreviations = SentenceAbbreviations(language: language)
    }

    public func tokenize(_ text: String) -> [Range<String.Index>] {
        let characters = TextGraphemes(text)
        let count = characters.count
        var ranges: [Range<Int>] = []
        var start = 0

        func cut(at end: Int, resumingAt next: Int) {
            defer { start = next }
            guard let range = characters.trimmed(start..<end) else { return }
            // Punctuation alone (a French ` !` after a stop, `...`) joins the sentence before it.
            if let last = ranges.last, !range.contains(where: { characters.isLetter($0) || characters.isNumber($0) }) {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }

        var index = 0
        while index < count {
            if characters.isNewline(index), let breakEnd = characters.paragraphBreakEnd(at: index) {
                cut(at: index, resumingAt: breakEnd)
                index = breakEnd
                continue
            }
            if characters.isMark(index, SentenceMarks.isCJKTerminator) {
                var end = index + 1
                while end < count, characters.isMark(end, SentenceMarks.isCJKTerminator) || characters.isMark(end, SentenceMarks.isCloser) {
                    end += 1
                }
                cut(at: end, resumingAt: end)
                index = end
                continue
            }
            guard characters.isMark(index, SentenceMarks.isTerminator) else {
                index += 1
                continue
            }
            var runEnd = index
            while runEnd < count, characters.isMark(runEnd, SentenceMarks.isTerminator) { runEnd += 1 }
            let end = Self.endAfterClosers(characters, from: runEnd)
            guard end == count || characters.isWhitespace(end) else {
                index = runEnd
                continue
            }
            if end < count, isBoundary(characters, terminatorRun: index..<runEnd, next: end) {
                cut(at: end, resumingAt: end)
            }
            index = end
        }
        cut(at: count, resumingAt: count)
        return ranges.map { characters.stringIndex($0.lowerBound)..<characters.stringIndex($0.upperBound) }
    }

    /// Whether the terminators at `run`, followed by whitespace from `next`, end a sentence.
    private func isBoundary(_ characters: TextGraphemes, terminatorRun run: Range<Int>, next: Int) -> Bool {
        var start = next
        while start < characters.count, characters.isWhitespace(start) || characters.isMark(start, SentenceMarks.isOpener) {
            start += 1
        }
        guard start < characters.count else { return true }
        if characters.isLowercase(start) { return false }
        let isPeriod = { characters.singleScalar($0) == 0x2E }
        if run.contains(where: { characters.singleScalar($0) == 0x2026 }) || run.count >= 3 && run.allSatisfy(isPeriod) {
            return characters.isUppercase(start)
        }
        guard run.count == 1, isPeriod(run.lowerBound) else { return true }

        var wordStart = run.lowerBound
        while wordStart > 0, characters.isLetter(wordStart - 1) || isPeriod(wordStart - 1) {
            wordStart -= 1
        }
        let word = String(characters.substring(wordStart..<run.lowerBound))
        if word.count == 1, let letter = word.first, letter.isUppercase {
            return abbreviations.isStandaloneWord(word)
        }
        // Dotted initials (`T.S. Eliot`, `J.R.R. Tolkien`) before a capitalized name.
        let parts = word.split(separator: ".")
        if parts.count >= 2, parts.allSatisfy({ $0.count == 1 && $0.first!.isUppercase }) { return false }
        let key = word.lowercased()
        if abbreviations.beforeAnything.contains(key) { return false }
        if abbreviations.beforeNumbers.contains(key), characters.isNumber(start) { return false }
        return true
    }

    /// The index after the closing quotes and brackets that follow `index`; a `»` may follow spaces.
    private static func endAfterClosers(_ characters: TextGraphemes, from index: Int) -> Int {
        var end = index
        while end < characters.count {
            if characters.isMark(end, SentenceMarks.isCloser) {
                end += 1
                continue
            }
            var lookahead = end
            while lookahead < characters.count, characters.isWhitespace(lookahead), !characters.isNewline(lookahead) {
                lookahead += 1
            }
            if lookahead > end, lookahead < characters.count, characters.singleScalar(lookahead) == 0xBB /* » */ {
                end = lookahead + 1
                continue
            }
            break
        }
        return end
    }
}
