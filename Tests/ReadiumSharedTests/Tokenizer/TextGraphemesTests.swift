// SPDX-License-Identifier: GPL-3.0-or-later
@testable import ReadiumShared
import Testing

/// `TextGraphemes` has the characters `String` has, and answers for each what `Character` answers.
@Suite struct TextGraphemesTests {
    /// Texts where characters span several scalars, or where two scalars could be taken for one.
    static let texts: [String] = [
        "", "a", "Hello, world. Next!", "e\u{301}te\u{301}", ".\u{301} !\u{20DD}", "\r\n\r\n\n\r", "a\u{200D}b",
        "👨‍👩‍👧 👍🏽 🇫🇷🇩🇪🇫", "\u{1100}\u{1161}\u{11A8}각\u{11A8}", "क्षत्रिय किताब", "\u{0600}1 \u{0600}a", "ก่อน",
        "« Va\u{202F}! » dit-il.\u{A0}Fin\u{2009}?", "吾輩は猫である。「見当がつかぬ。」ｶﾞｷﾞ", "בְּרֵאשִׁית׃ كيف حالك؟",
        "Ǆǅǆ ΣσςİıﬁǰΐẞßΩΩ Å", "\u{85}\u{2028}\u{2029}\u{0B}\u{0C}\u{3000}\u{FEFF}x\u{34F}y",
        String(repeating: "Long ASCII text. ", count: 40),
    ]

    static func check(_ text: String) {
        let characters = TextGraphemes(text)
        let indices = Array(text.indices)
        #expect(characters.count == indices.count, "\(String(reflecting: text))")
        guard characters.count == indices.count else { return }
        #expect(characters.offsets == (indices + [text.endIndex]).map { text.utf8.distance(from: text.startIndex, to: $0) })
        for (position, index) in indices.enumerated() {
            let character = text[index]
            let described = "\(String(reflecting: String(character))) in \(String(reflecting: text))"
            #expect(characters.stringIndex(position) == index, "\(described)")
            #expect(characters.isLetter(position) == character.isLetter, "isLetter of \(described)")
            #expect(characters.isNumber(position) == character.isNumber, "isNumber of \(described)")
            #expect(characters.isWhitespace(position) == character.isWhitespace, "isWhitespace of \(described)")
            #expect(characters.isNewline(position) == character.isNewline, "isNewline of \(described)")
            #expect(characters.isLowercase(position) == character.isLowercase, "isLowercase of \(described)")
            #expect(characters.isUppercase(position) == character.isUppercase, "isUppercase of \(described)")
            #expect((characters.singleScalar(position) != nil) == (character.unicodeScalars.count == 1), "\(described)")
        }
    }

    @Test(arguments: texts)
    func charactersAndPropertiesAreString(text: String) {
        Self.check(text)
    }

    /// Every pair of scalars the fast path splits without asking `String` is two characters to `String`.
    @Test func scalarsSaidToBreakWhenPairedAreTwoCharacters() {
        var samples: [Unicode.Scalar] = []
        var value: UInt32 = 0
        while value < 0x3_0000 {
            // Each run of scalars the fast path accepts: its ends and a few inside.
            if TextGraphemes.breaksWhenPaired(value), !TextGraphemes.breaksWhenPaired(value &- 1) || value == 0 {
                var end = value
                while TextGraphemes.breaksWhenPaired(end + 1) { end += 1 }
                for candidate in [value, value + 1, (value + end) / 2, end - 1, end] where candidate >= value && candidate <= end {
                    if let scalar = Unicode.Scalar(candidate) { samples.append(scalar) }
                }
                value = end
            }
            value += 1
        }
        #expect(samples.count > 40)
        for first in samples {
            for second in samples where !(first == "\r" && second == "\n") {
                var pair = String(Character(first))
                pair.unicodeScalars.append(second)
                #expect(pair.count == 2, "U+\(String(first.value, radix: 16)) U+\(String(second.value, radix: 16))")
            }
        }
    }

    /// The whitespace `isTokenizerWhitespace` adds by name is white space to Unicode already, which lets
    /// `TextGraphemes.isWhitespace` stand for it.
    @Test func noBreakSpacesAreUnicodeWhitespace() {
        for space: Character in ["\u{00A0}", "\u{202F}", "\u{2009}"] {
            #expect(space.isWhitespace && space.isTokenizerWhitespace)
        }
    }
}
