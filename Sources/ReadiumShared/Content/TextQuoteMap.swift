// SPDX-License-Identifier: GPL-3.0-or-later
/// How a text made for reading lines up with the page's own text that a locator quotes.
///
/// A reader aloud speaks and shows text with runs of white space collapsed, ruby readings left out and
/// alternative text put in, but a visual navigator finds a locator by the page's own text: `text.highlight`
/// is an exact slice of the selected element's `textContent`. The map says which part of that quoted text
/// each part of the reading text comes from, so a sentence or a word of the reading text gets the exact
/// page text as its highlight.
///
/// The map is a sequence of pieces, each a length of reading text and a length of quoted text: a
/// verbatim piece is the same characters on both sides; any other piece stands as a whole for its quote
/// (a collapsed space for a newline and indentation, alternative text for a formula, no text for a ruby
/// reading). Lengths count UTF-8 bytes.
public struct TextQuoteMap: Sendable, Hashable {
    public struct Piece: Sendable, Hashable {
        public var textLength: Int
        public var quoteLength: Int
        /// Whether text and quote are the same characters; otherwise the text as a whole stands for the quote as a whole.
        public var isVerbatim: Bool
    }

    public private(set) var pieces: [Piece] = []
    public private(set) var textLength = 0
    public private(set) var quoteLength = 0

    public init() {}

    /// The map of a text that is its own quote.
    public static func verbatim(length: Int) -> TextQuoteMap {
        var map = TextQuoteMap()
        map.append(textLength: length, quoteLength: length, isVerbatim: true)
        return map
    }

    /// The map of `text` quoted as itself.
    public static func verbatim(_ text: some StringProtocol) -> TextQuoteMap {
        verbatim(length: text.utf8.count)
    }

    /// Reading text made of `quote` with each run of white space collapsed to one space and the ends
    /// trimmed, and the map of that text onto `quote`.
    public static func collapsingWhitespace(of quote: String) -> (text: String, map: TextQuoteMap) {
        var text = ""
        var map = TextQuoteMap()
        // The white space met since the last other character: its first character's length, then the rest.
        var pending: (first: Int, isSpace: Bool, rest: Int)?
        for character in quote {
            let length = character.utf8.count
            if character.isWhitespace {
                if let run = pending {
                    pending = (run.first, run.isSpace, run.rest + length)
                } else {
                    pending = (length, character == " ", 0)
                }
                continue
            }
            if let run = pending {
                if text.isEmpty {
                    map.append(textLength: 0, quoteLength: run.first + run.rest, isVerbatim: false)
                } else {
                    text.append(" ")
                    map.append(textLength: 1, quoteLength: run.first, isVerbatim: run.isSpace)
                    map.append(textLength: 0, quoteLength: run.rest, isVerbatim: false)
                }
                pending = nil
            }
            text.append(character)
            map.append(textLength: length, quoteLength: length, isVerbatim: true)
        }
        if let run = pending { map.append(textLength: 0, quoteLength: run.first + run.rest, isVerbatim: false) }
        return (text, map)
    }

    /// Adds a piece at the end; adjacent verbatim pieces, and adjacent pieces of quote alone, merge.
    public mutating func append(textLength: Int, quoteLength: Int, isVerbatim: Bool) {
        guard textLength > 0 || quoteLength > 0 else { return }
        let verbatim = isVerbatim && textLength == quoteLength
        self.textLength += textLength
        self.quoteLength += quoteLength
        if let last = pieces.last, last.isVerbatim && verbatim || last.textLength == 0 && textLength == 0 {
            pieces[pieces.count - 1].textLength += textLength
            pieces[pieces.count - 1].quoteLength += quoteLength
        } else {
            pieces.append(Piece(textLength: textLength, quoteLength: quoteLength, isVerbatim: verbatim))
        }
    }

    /// Adds the pieces of `other` at the end.
    public mutating func append(_ other: TextQuoteMap) {
        for piece in other.pieces { append(textLength: piece.textLength, quoteLength: piece.quoteLength, isVerbatim: piece.isVerbatim) }
    }

    /// The quote of the text in `range` (UTF-8 offsets of the text): from the first character's quote to
    /// the last one's. Quote standing for no text at either end (a ruby reading after the last word) is
    /// left out. An empty range gives the empty range where its text would be.
    public func quoteRange(forText range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else {
            let position = quoteOffset(startingText: range.lowerBound)
            return position..<position
        }
        let start = quoteOffset(startingText: range.lowerBound)
        var textStart = 0
        var quoteStart = 0
        for piece in pieces {
            let textEnd = textStart + piece.textLength
            if piece.textLength > 0, range.upperBound <= textEnd {
                let end = piece.isVerbatim ? quoteStart + (range.upperBound - textStart) : quoteStart + piece.quoteLength
                return start..<max(start, end)
            }
            textStart = textEnd
            quoteStart += piece.quoteLength
        }
        return start..<max(start, quoteLength)
    }

    /// The map of the text in `range` onto its quote, `quoteRange(forText: range)`.
    public func slice(_ range: Range<Int>) -> TextQuoteMap {
        var result = TextQuoteMap()
        guard !range.isEmpty else { return result }
        var textStart = 0
        for piece in pieces {
            let textEnd = textStart + piece.textLength
            defer { textStart = textEnd }
            if piece.textLength == 0 {
                // Quote alone counts only strictly inside the range.
                if textStart > range.lowerBound, textStart < range.upperBound {
                    result.append(textLength: 0, quoteLength: piece.quoteLength, isVerbatim: false)
                }
                continue
            }
            let lower = max(textStart, range.lowerBound)
            let upper = min(textEnd, range.upperBound)
            guard lower < upper else { continue }
            if piece.isVerbatim {
                result.append(textLength: upper - lower, quoteLength: upper - lower, isVerbatim: true)
            } else {
                result.append(textLength: upper - lower, quoteLength: piece.quoteLength, isVerbatim: false)
            }
        }
        return result
    }

    /// This map once the text in `range` (UTF-8 offsets) is replaced by `length` bytes of other text that
    /// stands for the same quote (a pronunciation lexicon's alias for a word); nil when `range` cuts into a
    /// piece that is not verbatim (part of a formula's alternative text).
    public func replacingText(_ range: Range<Int>, withTextLength length: Int) -> TextQuoteMap? {
        var result = TextQuoteMap()
        var replacedQuote = 0
        var replaced = false
        var textStart = 0
        func replace() {
            guard !replaced else { return }
            result.append(textLength: length, quoteLength: replacedQuote, isVerbatim: false)
            replaced = true
        }
        for piece in pieces {
            let textEnd = textStart + piece.textLength
            defer { textStart = textEnd }
            // Quote alone (no text) goes with the side it stands on; inside the range, with the replacement.
            let isBefore = piece.textLength > 0 ? textEnd <= range.lowerBound : textStart <= range.lowerBound
            let isAfter = textStart >= range.upperBound
            if isBefore, !replaced {
                result.append(textLength: piece.textLength, quoteLength: piece.quoteLength, isVerbatim: piece.isVerbatim)
            } else if isAfter {
                replace()
                result.append(textLength: piece.textLength, quoteLength: piece.quoteLength, isVerbatim: piece.isVerbatim)
            } else if piece.isVerbatim {
                let before = max(0, range.lowerBound - textStart)
                let after = max(0, textEnd - range.upperBound)
                result.append(textLength: before, quoteLength: before, isVerbatim: true)
                replacedQuote += piece.textLength - before - after
                if after > 0 {
                    replace()
                    result.append(textLength: after, quoteLength: after, isVerbatim: true)
                }
            } else {
                guard piece.textLength == 0 || textStart >= range.lowerBound && textEnd <= range.upperBound else { return nil }
                replacedQuote += piece.quoteLength
            }
        }
        if !replaced { result.append(textLength: length, quoteLength: replacedQuote, isVerbatim: false) }
        return result
    }

    /// The map of the first `length` bytes of text, with any quote standing for no text before them
    /// (the end of the quote is the last character's).
    public func prefix(textLength length: Int) -> TextQuoteMap {
        var result = TextQuoteMap()
        for piece in pieces {
            guard piece.textLength == 0 else { break }
            result.append(textLength: 0, quoteLength: piece.quoteLength, isVerbatim: false)
        }
        result.append(slice(0..<length))
        return result
    }

    /// This map once the text in `ranges` (UTF-8 offsets, sorted, not overlapping) is cut out of the
    /// reading text; the page still has their quote, which then stands for no text.
    public func removingText(_ ranges: [Range<Int>]) -> TextQuoteMap {
        guard !ranges.isEmpty else { return self }
        var result = TextQuoteMap()
        var textStart = 0
        for piece in pieces {
            let textEnd = textStart + piece.textLength
            defer { textStart = textEnd }
            let overlaps = ranges.compactMap { range -> Range<Int>? in
                let lower = max(range.lowerBound, textStart)
                let upper = min(range.upperBound, textEnd)
                return lower < upper ? lower..<upper : nil
            }
            guard !overlaps.isEmpty else {
                result.append(textLength: piece.textLength, quoteLength: piece.quoteLength, isVerbatim: piece.isVerbatim)
                continue
            }
            if piece.isVerbatim {
                var position = textStart
                for cut in overlaps {
                    result.append(textLength: cut.lowerBound - position, quoteLength: cut.lowerBound - position, isVerbatim: true)
                    result.append(textLength: 0, quoteLength: cut.count, isVerbatim: false)
                    position = cut.upperBound
                }
                result.append(textLength: textEnd - position, quoteLength: textEnd - position, isVerbatim: true)
            } else {
                let removed = overlaps.reduce(0) { $0 + $1.count }
                result.append(textLength: piece.textLength - removed, quoteLength: piece.quoteLength, isVerbatim: false)
            }
        }
        return result
    }

    /// This map once `leading` bytes of quote are left out at its start and `trailing` at its end (white
    /// space around the text that a highlight does not quote): taken from quote that stands for no text
    /// or for text as a whole, never from text itself. Nil when that would cut into a verbatim piece.
    public func trimmingQuote(leading: Int, trailing: Int) -> TextQuoteMap? {
        guard leading > 0 || trailing > 0 else { return self }
        var kept = pieces
        var remaining = leading
        for index in kept.indices where remaining > 0 {
            if kept[index].isVerbatim && kept[index].quoteLength > 0 { return nil }
            let cut = min(remaining, kept[index].quoteLength)
            kept[index].quoteLength -= cut
            remaining -= cut
        }
        remaining = trailing
        for index in kept.indices.reversed() where remaining > 0 {
            if kept[index].isVerbatim && kept[index].quoteLength > 0 { return nil }
            let cut = min(remaining, kept[index].quoteLength)
            kept[index].quoteLength -= cut
            remaining -= cut
        }
        guard remaining == 0 else { return nil }
        var result = TextQuoteMap()
        for piece in kept { result.append(textLength: piece.textLength, quoteLength: piece.quoteLength, isVerbatim: piece.isVerbatim) }
        return result
    }

    /// Where the quote of the character at text offset `offset` starts (past any quote standing for no
    /// text before it); `quoteLength` at the end of the text.
    private func quoteOffset(startingText offset: Int) -> Int {
        var textStart = 0
        var quoteStart = 0
        for piece in pieces {
            let textEnd = textStart + piece.textLength
            if piece.textLength > 0, offset < textEnd {
                return piece.isVerbatim ? quoteStart + (offset - textStart) : quoteStart
            }
            textStart = textEnd
            quoteStart += piece.quoteLength
        }
        return quoteLength
    }
}

extension StringProtocol {
    /// The characters between UTF-8 offsets `range` (which must fall on character boundaries).
    public func utf8Slice(_ range: Range<Int>) -> SubSequence {
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let upper = utf8.index(lower, offsetBy: range.count)
        return self[lower..<upper]
    }
}
