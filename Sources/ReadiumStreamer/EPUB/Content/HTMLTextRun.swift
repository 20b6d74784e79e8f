// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A run of reading text in one language, and the part of the document's own text it reads.
///
/// The reading text has HTML white space collapsed as a browser renders it; `map` lines it up with the
/// document's text from `quoteStart` (UTF-8 offsets of the text `HTMLContentWalker` keeps), so that
/// locators can quote the page exactly.
struct HTMLTextRun {
    var text: String
    var language: Language?
    var languageSource = LanguageSource.declared
    var quoteStart: Int
    var map: TextQuoteMap
    /// Note references and such, in characters of `text`; set when the block is emitted.
    var inlineRuns: [TextContentElement.InlineRun] = []
    /// Parts of `text` spoken as given phonemes (`ssml:ph`, a lexicon's), UTF-8 offsets; set when the block is emitted.
    var phonemes: [PhonemeSpan] = []

    var quoteEnd: Int { quoteStart + map.quoteLength }

    /// The reading text of `raw`, found at `position` in the document's text, after `previous`
    /// (the last character read in the block, nil at its start): white space collapsed to one space.
    ///
    /// Works on runs of characters by UTF-8 offset (`TextGraphemes`): a run without HTML white space is
    /// appended, and mapped, at once.
    static func collapsing(_ raw: String, at position: Int, after previous: Character?) -> HTMLTextRun {
        var lastWasSpace = previous.map { $0 == " " || $0 == "\n" } ?? true
        let characters = TextGraphemes(raw)
        var text = ""
        text.reserveCapacity(raw.utf8.count)
        var map = TextQuoteMap()
        var index = 0
        while index < characters.count {
            let start = characters.offsets[index]
            guard isHTMLSpace(characters, index) else {
                var end = index + 1
                while end < characters.count, !isHTMLSpace(characters, end) { end += 1 }
                let length = characters.offsets[end] - start
                text += characters.substring(index..<end)
                map.append(textLength: length, quoteLength: length, isVerbatim: true)
                lastWasSpace = false
                index = end
                continue
            }
            let length = characters.offsets[index + 1] - start
            if lastWasSpace {
                map.append(textLength: 0, quoteLength: length, isVerbatim: false)
            } else {
                text.append(" ")
                map.append(textLength: 1, quoteLength: length, isVerbatim: characters.singleScalar(index) == 0x20)
            }
            lastWasSpace = true
            index += 1
        }
        return HTMLTextRun(text: text, quoteStart: position, map: map)
    }

    /// Reading text that stands for the document's text in `range` as a whole (a formula's alternative
    /// text), white space collapsed after `previous`.
    static func standing(for range: Range<Int>, text raw: String, after previous: Character?) -> HTMLTextRun {
        let text = collapsing(raw, at: 0, after: previous).text
        var map = TextQuoteMap()
        map.append(textLength: text.utf8.count, quoteLength: range.count, isVerbatim: false)
        return HTMLTextRun(text: text, quoteStart: range.lowerBound, map: map)
    }

    /// Adds `other`, which comes later in the document; the page text between them is quoted as read by
    /// nothing (a ruby reading, hidden text).
    mutating func append(_ other: HTMLTextRun) {
        map.append(textLength: 0, quoteLength: max(0, other.quoteStart - quoteEnd), isVerbatim: false)
        map.append(other.map)
        text += other.text
    }

    /// Starts the quote earlier, at `position`: the page text up to the current start is read by nothing.
    mutating func extendStart(to position: Int) {
        guard position < quoteStart else { return }
        var extended = TextQuoteMap()
        extended.append(textLength: 0, quoteLength: quoteStart - position, isVerbatim: false)
        extended.append(map)
        map = extended
        quoteStart = position
    }

    /// Ends the text with `replacement` (a `<br>`'s line break) instead of its trailing spaces; the
    /// replacement stands at `position` of the document's text and quotes nothing.
    mutating func replaceTrailingSpaces(with replacement: Character, at position: Int) {
        var trailing = 0
        while text.last == " " {
            text.removeLast()
            trailing += 1
        }
        let length = text.utf8.count
        map = map.removingText([length..<(length + trailing)])
        map.append(textLength: 0, quoteLength: max(0, position - quoteEnd), isVerbatim: false)
        text.append(replacement)
        map.append(textLength: String(replacement).utf8.count, quoteLength: 0, isVerbatim: false)
    }

    /// Drops the leading white space of the text and its quote; returns how many characters it dropped.
    mutating func trimLeadingWhitespace() -> Int {
        let dropped = text.prefix(while: \.isWhitespace)
        guard !dropped.isEmpty else { return 0 }
        let kept = dropped.utf8.count..<text.utf8.count
        quoteStart += map.quoteRange(forText: kept).lowerBound
        map = map.slice(kept)
        text = String(text.dropFirst(dropped.count))
        return dropped.count
    }

    /// Drops the trailing white space of the text and its quote.
    mutating func trimTrailingWhitespace() {
        var kept = text
        while kept.last?.isWhitespace == true { kept.removeLast() }
        guard kept.count < text.count else { return }
        map = map.prefix(textLength: kept.utf8.count)
        text = kept
    }

    /// Whether character `index` is HTML white space: made only of space, tab, line feed, carriage
    /// return and form feed scalars (CR LF is one character).
    private static func isHTMLSpace(_ characters: TextGraphemes, _ index: Int) -> Bool {
        if let value = characters.singleScalar(index) { return isHTMLSpace(value) }
        return characters.substring(index..<(index + 1)).unicodeScalars.allSatisfy { isHTMLSpace($0.value) }
    }

    private static func isHTMLSpace(_ value: UInt32) -> Bool {
        value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0D || value == 0x0C
    }
}
