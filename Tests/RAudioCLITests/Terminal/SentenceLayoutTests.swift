// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioCLI

/// The sentence broken into lines: Japanese text follows the line-breaking rules (kinsoku), wide
/// characters take two columns, and the word heard stays highlighted wherever the breaks fall.
@Suite struct SentenceLayoutTests {
    static let japanese = "「昨夕は雨でした。」と彼女は言った。今朝、空は晴れ（少し寒い）、鳥が鳴いていた！ちょっと待ってください。"

    /// At every width, no line begins with closing punctuation or small kana, none ends with an opening
    /// bracket, every line fits, and nothing is lost. (From four characters a line: narrower, a run such as
    /// `た。」` leaves no allowed break and the line is cut where it is full.)
    @Test(arguments: 8...40) func japaneseLinesFollowKinsokuAtEveryWidth(columns: Int) {
        let lines = SentenceLayout.lines(Self.japanese, word: nil, columns: columns).map(\.text)
        #expect(lines.joined() == Self.japanese)
        for (index, line) in lines.enumerated() {
            #expect(DisplayWidth.of(line) <= columns, "\(line) is wider than \(columns)")
            if index > 0, let first = line.first {
                #expect(!SentenceLayout.notAtLineStart.contains(first), "line \(index) begins with \(first) at \(columns) columns: \(lines)")
            }
            if index < lines.count - 1, let last = line.last {
                #expect(!SentenceLayout.notAtLineEnd.contains(last), "line \(index) ends with \(last) at \(columns) columns: \(lines)")
            }
        }
    }

    @Test func aFullStopThatWouldBeginALineTakesTheCharacterBeforeItAlong() {
        // Five wide characters fill ten columns: the break would fall before "。".
        let lines = SentenceLayout.lines("あいうえお。かきくけこ", word: nil, columns: 10).map(\.text)
        #expect(lines == ["あいうえ", "お。かきく", "けこ"])
    }

    @Test func anOpeningBracketGoesToTheNextLine() {
        let lines = SentenceLayout.lines("あいう「えお」", word: nil, columns: 8).map(\.text)
        #expect(lines == ["あいう", "「えお」"])
    }

    @Test func aRunOfCharactersThatCannotBeginALineIsCutWhereTheLineIsFull() {
        // Nothing but characters that may not begin a line: no break is allowed, the line is cut when full.
        let lines = SentenceLayout.lines("。。。。。。", word: nil, columns: 4).map(\.text)
        #expect(lines == ["。。", "。。", "。。"])
    }

    @Test func theWordHeardStaysHighlightedAcrossAKinsokuBreak() throws {
        let sentence = "あいうえお。かきくけこ"
        let word = try #require(sentence.range(of: "お。か"))
        let lines = SentenceLayout.lines(sentence, word: word, columns: 10)
        let highlighted = lines.flatMap(\.spans).filter { $0.style == .highlight }.map(\.text)
        #expect(highlighted == ["お。か"])
        #expect(SentenceLayout.lineOfWord(in: lines) == 1)
    }

    @Test func latinTextBeforeJapaneseKeepsItsSpace() {
        let lines = SentenceLayout.lines("Chapter 1 あいうえおかきくけこ。", word: nil, columns: 12).map(\.text)
        #expect(lines.first == "Chapter 1 あ")
        #expect(lines.joined() == "Chapter 1 あいうえおかきくけこ。")
        #expect(lines.allSatisfy { !($0.first.map(SentenceLayout.notAtLineStart.contains) ?? false) })
    }
}
