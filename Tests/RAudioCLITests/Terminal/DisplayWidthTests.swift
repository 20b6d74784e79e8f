// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// Text is measured in terminal columns: wide CJK characters, zero-width combining marks, one column
/// per Hebrew or Arabic letter.
@Suite struct DisplayWidthTests {
    @Test func columnsOfEachScript() {
        #expect(DisplayWidth.of("Gull Rock") == 9)
        #expect(DisplayWidth.of("灯台守") == 6, "Japanese kanji are two columns each")
        #expect(DisplayWidth.of("とうだい") == 8)
        #expect(DisplayWidth.of("ＡＢ") == 4, "fullwidth Latin")
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1, "a combining accent takes no column")
        #expect(DisplayWidth.of("שָׁלוֹם") == 4, "Hebrew points take no column")
        #expect(DisplayWidth.of("كِتَاب") == 4, "Arabic vowel marks take no column")
        #expect(DisplayWidth.of("🎧") == 2)
        #expect(DisplayWidth.of("a\u{200B}b") == 2, "a zero-width space")
    }

    @Test func truncationNeverPassesTheWidthNorSplitsACharacter() {
        for text in ["The Last Lamp of Gull Rock", "灯台守の最後の夜の物語", "ספר האור האחרון של הצוק", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"] {
            for width in 1...12 {
                let cut = DisplayWidth.truncated(text, to: width)
                #expect(DisplayWidth.of(cut) <= width, "\(text) at \(width): \(cut)")
                if DisplayWidth.of(text) > width { #expect(cut.hasSuffix("…")) } else { #expect(cut == text) }
            }
        }
        // A wide character that does not fit is left out, not cut in half.
        #expect(DisplayWidth.truncated("灯台守の", to: 4) == "灯…")
        #expect(DisplayWidth.of(DisplayWidth.padded("灯台", to: 7)) == 7)
    }

    @Test func wrappingBreaksAtSpacesAndInsideLongCJKRuns() {
        #expect(DisplayWidth.wrapped("the wind rose over the rocks", to: 10) == ["the wind", "rose over", "the rocks"])
        let japanese = DisplayWidth.wrapped("灯台守は階段を上った", to: 8)
        #expect(japanese == ["灯台守は", "階段を上", "った"])
    }
}
