// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// `HTMLTextRun.collapsing` (on runs of characters by UTF-8 offset) reads and maps a text node exactly
/// as the `Character`-by-`Character` version it replaced (`referenceCollapsing`, kept here) did.
@Suite struct HTMLTextRunCollapsingTests {
    /// The collapsing as it was: one `Character` at a time, one map piece appended per character.
    static func referenceCollapsing(_ raw: String, after previous: Character?) -> (text: String, map: TextQuoteMap) {
        var lastWasSpace = previous.map { $0 == " " || $0 == "\n" } ?? true
        var text = ""
        var map = TextQuoteMap()
        for character in raw {
            let length = character.utf8.count
            if character.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) {
                if lastWasSpace {
                    map.append(textLength: 0, quoteLength: length, isVerbatim: false)
                } else {
                    text.append(" ")
                    map.append(textLength: 1, quoteLength: length, isVerbatim: character == " ")
                }
                lastWasSpace = true
            } else {
                text.append(character)
                map.append(textLength: length, quoteLength: length, isVerbatim: true)
                lastWasSpace = false
            }
        }
        return (text, map)
    }

    static let pieces: [String] = [
        "a", "word", "É", "e\u{301}", "ß", "1", ".", "…", "«", "»", "’", "—", "吾輩", "👨‍👩‍👧", "🇫🇷", "\u{0600}", "क्ष", "\u{A0}", "\u{202F}", "\u{3000}",
        " ", " ", "  ", "\t", "\n", "\n    ", "\r", "\r\n", "\u{0C}", " \u{301}", "\n\u{301}", "\u{200D} ", "\u{0600} ", "\u{301}",
    ]

    @Test func collapsesLikeTheReferenceOnRandomMixes() {
        var generator = SplitMix64(seed: 4)
        var problems: [String] = []
        for _ in 0..<4_000 {
            let raw = (0..<Int.random(in: 0...20, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            for previous: Character? in [nil, " ", "\n", "a", "\t"] {
                let expected = Self.referenceCollapsing(raw, after: previous)
                let run = HTMLTextRun.collapsing(raw, at: 7, after: previous)
                if run.text != expected.text || run.map != expected.map || run.quoteStart != 7 {
                    problems.append("\(String(reflecting: raw)) after \(String(reflecting: previous)): \(String(reflecting: run.text)) \(run.map.pieces), expected \(String(reflecting: expected.text)) \(expected.map.pieces)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) of 20000 differ, first: \(problems.prefix(3).joined(separator: "; "))")
    }

    @Test func collapsesAPoemsIndentedLines() {
        let run = HTMLTextRun.collapsing("\n      Call me Ishmael.\r\n  Some years ago\u{A0}—", at: 100, after: "d")
        #expect(run.text == " Call me Ishmael. Some years ago\u{A0}—")
        #expect(run.map.quoteLength == "\n      Call me Ishmael.\r\n  Some years ago\u{A0}—".utf8.count)
        #expect(run.map.quoteRange(forText: 1..<5) == 7..<11)  // "Call" in the page text
    }
}
