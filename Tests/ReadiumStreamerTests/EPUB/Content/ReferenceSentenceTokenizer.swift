// SPDX-License-Identifier: GPL-3.0-or-later
@testable import ReadiumShared

/// The sentence tokenizer as it was before it worked on UTF-8 offsets (`TextGraphemes`): the same rules
/// walked over an array of `Character`s, with `Set<Character>` lookups. Kept only here, as the
/// reference the differential tests hold the new one to (same ranges on every input); not for use.
struct ReferenceSentenceTokenizer: TextTokenizer {
    let language: Language?
    let abbreviations: SentenceAbbreviations

    init(language: Language?) {
        self.language = language
        self.abbreviations = SentenceAbbreviations(language: language)
    }

    func tokenize(_ text: String) -> [Range<String.Index>] {
        let characters = Array(text)
        var indices = Array(text.indices)
        indices.append(text.endIndex)
        let count = characters.count
        var ranges: [Range<String.Index>] = []
        var start = 0

        func cut(at end: Int, resumingAt next: Int) {
            defer { start = next }
            guard let range = Self.trimmedRange(indices[start]..<indices[end], in: text) else { return }
            // Punctuation alone (a French ` !` after a stop, `...`) joins the sentence before it.
            if let last = ranges.last, !text[range].contains(where: { $0.isLetter || $0.isNumber }) {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }

        var index = 0
        while index < count {
            let character = characters[index]
            if character.isNewline || character == "\u{2029}",
               let breakEnd = Self.paragraphBreakEnd(in: text, at: indices[index]) {
                let resume = indices.firstIndex(of: breakEnd) ?? count
                cut(at: index, resumingAt: resume)
                index = resume
                continue
            }
            if Self.cjkTerminators.contains(character) {
                var end = index + 1
                while end < count, Self.cjkTerminators.contains(characters[end]) || Self.closers.contains(characters[end]) {
                    end += 1
                }
                cut(at: end, resumingAt: end)
                index = end
                continue
            }
            guard Self.terminators.contains(character) else {
                index += 1
                continue
            }
            var runEnd = index
            while runEnd < count, Self.terminators.contains(characters[runEnd]) { runEnd += 1 }
            let end = Self.endAfterClosers(characters, from: runEnd)
            guard end == count || characters[end].isReferenceWhitespace else {
                index = runEnd
                continue
            }
            if end < count, isBoundary(characters, terminatorRun: index..<runEnd, next: end) {
                cut(at: end, resumingAt: end)
            }
            index = end
        }
        cut(at: count, resumingAt: count)
        return ranges
    }

    /// Whether the terminators at `run`, followed by whitespace from `next`, end a sentence.
    private func isBoundary(_ characters: [Character], terminatorRun run: Range<Int>, next: Int) -> Bool {
        var start = next
        while start < characters.count, characters[start].isReferenceWhitespace || Self.openers.contains(characters[start]) {
            start += 1
        }
        guard start < characters.count else { return true }
        let following = characters[start]
        if following.isLowercase { return false }
        let terminators = characters[run]
        if terminators.contains("…") || terminators.count >= 3 && terminators.allSatisfy({ $0 == "." }) {
            return following.isUppercase
        }
        guard terminators.count == 1, terminators.first == "." else { return true }

        var wordStart = run.lowerBound
        while wordStart > 0, characters[wordStart - 1].isLetter || characters[wordStart - 1] == "." {
            wordStart -= 1
        }
        let word = String(characters[wordStart..<run.lowerBound])
        if word.count == 1, let letter = word.first, letter.isUppercase {
            return abbreviations.isStandaloneWord(word)
        }
        // Dotted initials (`T.S. Eliot`, `J.R.R. Tolkien`) before a capitalized name.
        let parts = word.split(separator: ".")
        if parts.count >= 2, parts.allSatisfy({ $0.count == 1 && $0.first!.isUppercase }) { return false }
        let key = word.lowercased()
        if abbreviations.beforeAnything.contains(key) { return false }
        if abbreviations.beforeNumbers.contains(key), following.isNumber { return false }
        return true
    }

    /// The index after the closing quotes and brackets that follow `index`; a `»` may follow spaces.
    private static func endAfterClosers(_ characters: [Character], from index: Int) -> Int {
        var end = index
        while end < characters.count {
            if closers.contains(characters[end]) {
                end += 1
                continue
            }
            var lookahead = end
            while lookahead < characters.count, characters[lookahead].isReferenceWhitespace, !characters[lookahead].isNewline {
                lookahead += 1
            }
            if lookahead > end, lookahead < characters.count, characters[lookahead] == "»" {
                end = lookahead + 1
                continue
            }
            break
        }
        return end
    }

    static let terminators: Set<Character> = [".", "!", "?", "…", "‼", "⁇", "⁈", "⁉", "؟", "۔", "׃", "।", "॥"]
    static let cjkTerminators: Set<Character> = ["。", "！", "？", "｡"]
    static let closers: Set<Character> = ["\"", "”", "’", "'", "»", "›", ")", "]", "}", "」", "』", "）", "】", "〕", "〉", "》"]
    static let openers: Set<Character> = ["\"", "“", "‘", "'", "«", "‹", "(", "[", "¿", "¡", "—", "–", "「", "『"]

    /// `ParagraphTokenizer.paragraphBreakEnd` as it was, on `Character`s.
    static func paragraphBreakEnd(in text: String, at index: String.Index) -> String.Index? {
        if text[index] == "\u{2029}" { return text.index(after: index) }
        guard text[index].isNewline else { return nil }
        var cursor = text.index(after: index)
        var newlines = 1
        while cursor < text.endIndex, text[cursor].isReferenceWhitespace {
            if text[cursor].isNewline { newlines += 1 }
            cursor = text.index(after: cursor)
        }
        return newlines >= 2 ? cursor : nil
    }

    /// `trimmedRange(_:in:)` as it was, on `Character`s.
    static func trimmedRange(_ range: Range<String.Index>, in text: String) -> Range<String.Index>? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, text[lower].isReferenceWhitespace { lower = text.index(after: lower) }
        while upper > lower {
            let before = text.index(before: upper)
            guard text[before].isReferenceWhitespace else { break }
            upper = before
        }
        return lower < upper ? lower..<upper : nil
    }
}

extension Character {
    /// `isTokenizerWhitespace` as it was.
    fileprivate var isReferenceWhitespace: Bool {
        isWhitespace || self == "\u{00A0}" || self == "\u{202F}" || self == "\u{2009}"
    }
}
