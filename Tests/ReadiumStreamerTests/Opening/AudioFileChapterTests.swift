// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import ReadiumStreamer
import Testing

/// Embedded chapters as real files have them, broken included: repaired with a warning, never a crash.
@Suite struct AudioFileChapterTests {
    func titles(_ chapters: [AudioFileChapter]) -> [String?] { chapters.map(\.title) }

    @Test func sortedChaptersEndWhereTheNextStarts() {
        let (chapters, warnings) = AudioFileChapter.repaired([
            AudioFileChapter(title: "One", start: 0, end: 10), AudioFileChapter(title: "Two", start: 10, end: 25),
        ], duration: 30)
        #expect(warnings.isEmpty)
        #expect(chapters.map(\.end) == [10, 30])
    }

    @Test func unsortedPastTheEndDuplicateAndOverlappingChaptersAreRepairedWithWarnings() {
        let (chapters, warnings) = AudioFileChapter.repaired([
            AudioFileChapter(title: "Three", start: 20, end: 40),
            AudioFileChapter(title: "One", start: 0, end: 12),
            AudioFileChapter(title: nil, start: 10, end: 20),
            AudioFileChapter(title: "Two", start: 10, end: 20),
            AudioFileChapter(title: "Ghost", start: 95, end: 99),
            AudioFileChapter(title: "Nowhere", start: .nan),
        ], duration: 60)
        #expect(titles(chapters) == ["One", "Two", "Three"])
        #expect(chapters.map(\.start) == [0, 10, 20])
        #expect(chapters.map(\.end) == [10, 20, 60])
        #expect(warnings.count == 5, "\(warnings)")
        #expect(warnings.contains { $0.contains("'Ghost'") && $0.contains("past the end") })
        #expect(warnings.contains { $0.contains("not in time order") })
        #expect(warnings.contains { $0.contains("'One' overlaps") })
    }

    @Test func aZeroLengthChapterKeepsNoEndAndIsGivenTheNextStart() {
        let (chapters, _) = AudioFileChapter.repaired([
            AudioFileChapter(title: "A", start: 0, end: 0), AudioFileChapter(title: "B", start: 5),
        ], duration: nil)
        #expect(chapters.map(\.end) == [5, nil])
    }

    /// Issue 36: chapters a millisecond apart were each said ("two chapters start at 0.001 s; one left out",
    /// 133 lines in info --human): now once, with their count, saying they are less than 1 ms apart.
    @Test func chaptersStartingTogetherAreSaidOnceWithTheirCount() {
        let together = (0..<134).map { AudioFileChapter(title: "Part \($0)", start: 0.001 + Double($0) * 0.000001) }
        let (chapters, warnings) = AudioFileChapter.repaired(together + [AudioFileChapter(title: "End", start: 60)], duration: 100)
        #expect(chapters.map(\.title) == ["Part 0", "End"])
        #expect(warnings == ["133 chapters start less than 1 ms after an earlier one (the first at 0.001 s); left out"], "\(warnings)")
        let pair = AudioFileChapter.repaired([AudioFileChapter(title: nil, start: 2), AudioFileChapter(title: "B", start: 2)], duration: nil)
        #expect(pair.chapters.map(\.title) == ["B"])
        #expect(pair.warnings.count == 1 && pair.warnings[0].contains("less than 1 ms apart"))
    }
}
