// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// The bytes a terminal sends become keys, whatever way they are split between reads.
@Suite struct KeyDecoderTests {
    @Test func arrowsInBothModesLettersAndUTF8() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(decoder.feed(Array(" q[]é".utf8)) == [.character(" "), .character("q"), .character("["), .character("]"), .character("é")])
        #expect(decoder.feed([0x0D, 0x7F]) == [.enter, .backspace])
    }

    @Test func aSequenceSplitAcrossReadsIsCompleted() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]) == [])
        #expect(decoder.feed([UInt8(ascii: "C")]) == [.right])
        let bytes = Array("é".utf8)
        #expect(decoder.feed([bytes[0]]) == [])
        #expect(decoder.feed([bytes[1]]) == [.character("é")])
    }

    @Test func otherSequencesAreSwallowedWholeAndALoneEscapeIsEsc() {
        var decoder = KeyDecoder()
        // F5 (ESC [ 1 5 ~) and shift-up (ESC [ 1 ; 2 A) are not read as letters.
        #expect(decoder.feed(Array("\u{1B}[15~x".utf8)) == [.character("x")])
        #expect(decoder.feed(Array("\u{1B}[1;2A".utf8)) == [.up])
        #expect(decoder.feed([0x1B]) == [.escape])
        #expect(decoder.feed([0x03, UInt8(ascii: "a")]) == [.character("a")], "control bytes are left to the terminal's signals")
    }
}
