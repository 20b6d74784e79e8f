// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// An utterance's text as eSpeak NG is given it when parts of it are to be spoken as phonemes: each such part
/// replaced by `[[mnemonics]]` (`ESpeakPhonemeMapping`), synthesized with `espeakPHONEMES`; and, for each scalar of
/// that text, the scalar of the utterance's text it stands for, so that word events still point at the page's
/// words (every scalar of a `[[...]]` stands for the start of the part it replaces). Pure.
struct ESpeakPhonemeText: Sendable {
    /// The text to synthesize.
    private(set) var text: String
    /// For each Unicode scalar of `text`, the offset of the scalar of the original text it stands for; nil when
    /// nothing was replaced (the offsets are the same).
    private(set) var originalScalarOffsets: [Int]?
    /// The phonemes that have no eSpeak NG mnemonic (their text is spoken as written).
    private(set) var unmapped: [String] = []

    init(text original: String, phonemes: [PhonemeSpan], languageCode: String) {
        guard !phonemes.isEmpty else {
            text = original
            return
        }
        var text = ""
        var offsets: [Int] = []
        var scalarOffset = 0
        var byteOffset = 0
        // Book text that has `[[` of its own would be read as phonemes: its brackets become parentheses
        // (one scalar each, so offsets stay).
        func appendPlain(_ part: Substring) {
            for scalar in part.unicodeScalars {
                text.unicodeScalars.append(scalar == "[" ? "(" : scalar == "]" ? ")" : scalar)
                offsets.append(scalarOffset)
                scalarOffset += 1
            }
        }
        let length = original.utf8.count
        for span in phonemes.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard span.range.lowerBound >= byteOffset, span.range.upperBound <= length, !span.range.isEmpty,
                  let lower = original.utf8.index(original.startIndex, offsetBy: span.range.lowerBound, limitedBy: original.endIndex),
                  let upper = original.utf8.index(original.startIndex, offsetBy: span.range.upperBound, limitedBy: original.endIndex),
                  lower.samePosition(in: original.unicodeScalars) != nil, upper.samePosition(in: original.unicodeScalars) != nil else { continue }
            appendPlain(original.utf8Slice(byteOffset..<span.range.lowerBound))
            let spanText = original[lower..<upper]
            guard let mnemonics = ESpeakPhonemeMapping.mnemonics(forIPA: span.phonemes, languageCode: languageCode) else {
                unmapped.append(span.phonemes)
                appendPlain(spanText)
                byteOffset = span.range.upperBound
                continue
            }
            // Letters right beside the phonemes would join them into one word: a space keeps them apart. eSpeak NG
            // also drops phonemes right after punctuation (`([[...]]`): a space before them, unless there is one.
            let before = lower > original.startIndex ? original[original.index(before: lower)] : nil
            let after = upper < original.endIndex ? original[upper] : nil
            var replacement = "[[" + mnemonics + "]]"
            if let before, !before.isWhitespace { replacement = " " + replacement }
            if after.map({ $0.isLetter || $0.isNumber }) == true { replacement += " " }
            for scalar in replacement.unicodeScalars {
                text.unicodeScalars.append(scalar)
                offsets.append(scalarOffset)
            }
            scalarOffset += spanText.unicodeScalars.count
            byteOffset = span.range.upperBound
        }
        appendPlain(original.utf8Slice(byteOffset..<length))
        self.text = text
        originalScalarOffsets = offsets
    }

    /// Whether any part is spoken as phonemes (then eSpeak NG needs `espeakPHONEMES`).
    var hasPhonemes: Bool { originalScalarOffsets != nil && text.contains("[[") }

    /// The scalar offset in the original text of scalar `offset` of `text` (past the end: moved by as much).
    func originalScalarOffset(_ offset: Int) -> Int {
        guard let offsets = originalScalarOffsets else { return offset }
        if offset < offsets.count { return offsets[max(offset, 0)] }
        return (offsets.last.map { $0 + 1 } ?? 0) + (offset - offsets.count)
    }
}
