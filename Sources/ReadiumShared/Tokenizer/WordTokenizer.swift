// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits text into words: runs of letters, digits and combining marks.
///
/// Apostrophes and hyphens between letters stay inside a word (`don't`, `dit-il`); separators
/// between digits too (`3.14`, `1,000.5`, `10:30`). In French and Italian an elided article or
/// pronoun is a word of its own, apostrophe included (`l'` + `école`, `qu'` + `il`). Han, kana
/// characters are one word each, as CJK text has no spaces. Punctuation is never a word.
public struct WordTokenizer: TextTokenizer {
    public let language: Language?
    private let elisions: Set<String>

    public init(language: Language?) {
        self.language = language
        switch language?.baseCode {
        case "fr": elisions = ["l", "d", "j", "m", "n", "s", "t", "c", "ç", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu", "quelqu"]
        case "it": elisions = ["l", "d", "c", "un", "dell", "all", "dall", "nell", "sull", "coll", "quest", "quell", "po"]
        case "ca": elisions = ["l", "d", "s", "m", "t", "n"]
        default: elisions = []
        }
    }

    public func tokenize(_ text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var wordStart: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if Self.isCJKIdeograph(character) {
                if let start = wordStart { ranges.append(start..<index) }
                ranges.append(index..<next)
                wordStart = nil
            } else if Self.isWordCharacter(character) {
                if wordStart == nil { wordStart = index }
            } else if let start = wordStart {
                let previous = text[text.index(before: index)]
                let following = next < text.endIndex ? text[next] : nil
                if Self.apostrophes.contains(character), let following, Self.isWordCharacter(following), previous.isLetter {
                    if elisions.contains(text[start..<index].lowercased()) {
                        ranges.append(start..<next)
                        wordStart = nil
                    }
                } else if Self.hyphens.contains(character), let following, Self.isWordCharacter(following) {
                    // A hyphenated word stays whole.
                } else if Self.numberSeparators.contains(character), previous.isNumber, let following, following.isNumber {
                    // A decimal number or a time stays whole.
                } else {
                    ranges.append(start..<index)
                    wordStart = nil
                }
            }
            index = next
        }
        if let start = wordStart { ranges.append(start..<text.endIndex) }
        return ranges
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
            || character.unicodeScalars.first.map { $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark } == true
    }

    /// Han ideographs, hiragana and katakana: one word per character.
    static func isCJKIdeograph(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x4E00...0x9FFF).contains(scalar) || (0x3400...0x4DBF).contains(scalar) || (0x3040...0x30FF).contains(scalar)
            || (0xF900...0xFAFF).contains(scalar) || (0x20000...0x2FFFF).contains(scalar)
    }

    static let apostrophes: Set<Character> = ["'", "’"]
    static let hyphens: Set<Character> = ["-", "‐", "‑"]
    static let numberSeparators: Set<Character> = [".", ",", ":"]
}
