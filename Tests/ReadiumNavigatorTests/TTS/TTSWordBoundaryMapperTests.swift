// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import Testing

/// The word scan and the event mapping, without an engine: events as eSpeak NG sends them.
struct TTSWordBoundaryMapperTests {
    private func words(_ boundaries: [TTSWordBoundary], in text: String) -> [String] {
        boundaries.map { String(text[$0.range]) }
    }

    @Test func elisionEventOfLengthOneMapsToTheWholeWord() {
        let text = "L'école est à côté de l'église."
        var mapper = TTSWordBoundaryMapper(text: text)
        for (position, frame) in [(1, 0), (9, 6794), (13, 9624), (15, 11424), (20, 17718), (23, 20474)] {
            mapper.addEvent(scalarOffset: position - 1, frame: Int64(frame))
        }
        let boundaries = mapper.finish(frameCount: 31475)
        #expect(words(boundaries, in: text) == ["L'école", "est", "à", "côté", "de", "l'église"])
        #expect(boundaries.map(\.startFrame) == [0, 6794, 9624, 11424, 17718, 20474])
    }

    @Test func doubledEventsKeepTheFirstFrame() {
        let text = "漢字 です"
        var mapper = TTSWordBoundaryMapper(text: text)
        mapper.addEvent(scalarOffset: 0, frame: 0)
        mapper.addEvent(scalarOffset: 0, frame: 17848)
        mapper.addEvent(scalarOffset: 3, frame: 35363)
        let boundaries = mapper.finish(frameCount: 43435)
        #expect(words(boundaries, in: text) == ["漢字", "です"])
        #expect(boundaries.map(\.startFrame) == [0, 35363])
    }

    @Test func eventsBetweenWordsYieldToTheEventInsideTheWord() {
        let text = "Look 😀 here."
        var mapper = TTSWordBoundaryMapper(text: text)
        mapper.addEvent(scalarOffset: 0, frame: 0)
        mapper.addEvent(scalarOffset: 5, frame: 7000)  // the emoji
        mapper.addEvent(scalarOffset: 6, frame: 9000)  // the space after it
        mapper.addEvent(scalarOffset: 7, frame: 12000) // "here"
        let boundaries = mapper.finish(frameCount: 20000)
        #expect(words(boundaries, in: text) == ["Look", "here"])
        #expect(boundaries.map(\.startFrame) == [0, 12000])
    }

    @Test func backwardEventsAndFramesAreDroppedOrClamped() {
        let text = "one two three four"
        var mapper = TTSWordBoundaryMapper(text: text)
        mapper.addEvent(scalarOffset: 4, frame: 500)
        mapper.addEvent(scalarOffset: 0, frame: 600)   // goes back: dropped
        mapper.addEvent(scalarOffset: 8, frame: 400)   // frame goes back: clamped
        mapper.addEvent(scalarOffset: 14, frame: 900)  // beyond the PCM: dropped at finish
        mapper.addEvent(scalarOffset: 40, frame: 950)  // past the text: ignored
        let boundaries = mapper.finish(frameCount: 800)
        #expect(words(boundaries, in: text) == ["two", "three"])
        #expect(boundaries.map(\.startFrame) == [500, 500])
    }

    @Test func settledBoundariesAreHandedOutOnce() {
        let text = "a b c"
        var mapper = TTSWordBoundaryMapper(text: text)
        mapper.addEvent(scalarOffset: 0, frame: 0)
        #expect(mapper.takeSettled().isEmpty)
        mapper.addEvent(scalarOffset: 2, frame: 10)
        #expect(words(mapper.takeSettled(), in: text) == ["a"])
        #expect(mapper.takeSettled().isEmpty)
    }

    @Test(arguments: [
        ("well-known e-mail, isn't it?", ["well-known", "e-mail", "isn't", "it"]),
        ("Prix : 3,50 € — 1.000 ans", ["Prix", "3,50", "1.000", "ans"]),
        ("- dash -start end-", ["dash", "start", "end"]),
        ("カタカナとひらがなと漢字", ["カタカナ", "とひらがなと", "漢字"]),
        ("e\u{301}te\u{301} naïve", ["e\u{301}te\u{301}", "naïve"]),
        ("l’hôtel", ["l’hôtel"]),
        ("", []),
    ])
    func scannerFindsWholeWords(text: String, expected: [String]) {
        #expect(TTSWordScanner.words(in: text).map { String(text[$0.range]) } == expected)
    }
}
