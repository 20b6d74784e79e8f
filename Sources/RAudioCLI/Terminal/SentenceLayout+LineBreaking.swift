// SPDX-License-Identifier: GPL-3.0-or-later
/// Where a line of Chinese or Japanese text may break: kinsoku shori, the basics of JIS X 4051
/// (and of W3C's "Requirements for Japanese Text Layout", 3.1.7).
///
/// No closing punctuation, full stop, comma, small kana, prolonged sound mark or iteration mark begins
/// a line, and no opening bracket ends one. A terminal cannot hang punctuation past the last column
/// or squeeze a line, so the break moves back (oidashi): the characters before it go to the next line.
extension SentenceLayout {
    /// Characters that never begin a line: closing brackets and quotes, full stops and commas, middle
    /// dots, colons, question and exclamation marks, small kana, the prolonged sound mark, iteration marks.
    static let notAtLineStart: Set<Character> = Set(
        "）〕］｝〉》」』】〙〗〟’”｠»)]}"
            + "、。，．,.・：；:;？！?!‼⁇⁈⁉"
            + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
            + "ーゝゞヽヾ々〻")

    /// Characters that never end a line: opening brackets and quotes.
    static let notAtLineEnd: Set<Character> = Set("（〔［｛〈《「『【〘〖〝‘“｟«([{")

    /// Whether a line may break between `before` and `after`.
    static func canBreak(between before: Character, and after: Character) -> Bool {
        !notAtLineStart.contains(after) && !notAtLineEnd.contains(before)
    }

    /// Where to break `characters` for a line that holds `start..<full`: `full` when the rules allow a
    /// break there, else the nearest allowed break before it (the characters after go to the next
    /// line), `start` when there is none after `start`.
    static func breakIndex(in characters: [Character], from start: Int, before full: Int) -> Int {
        var cut = full
        while cut > start && !canBreak(between: characters[cut - 1], and: characters[cut]) { cut -= 1 }
        return cut
    }
}
