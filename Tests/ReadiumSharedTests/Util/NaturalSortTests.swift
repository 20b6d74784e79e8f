// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct NaturalSortTests {
    @Test func digitsCompareByNumericValue() {
        #expect(NaturalSort.sorted(["track10.mp3", "track2.mp3", "track1.mp3"]) == ["track1.mp3", "track2.mp3", "track10.mp3"])
        #expect(NaturalSort.areInIncreasingOrder("track2", "track10"))
        #expect(!NaturalSort.areInIncreasingOrder("track10", "track2"))
    }

    @Test func caseIsIgnored() {
        #expect(NaturalSort.sorted(["b.mp3", "A.mp3", "c.mp3"]) == ["A.mp3", "b.mp3", "c.mp3"])
    }

    @Test func equalNamesKeepTheirInputOrder() {
        #expect(NaturalSort.sorted(["Part01", "part1", "PART001"]) == ["Part01", "part1", "PART001"])
        #expect(NaturalSort.sorted(["PART001", "part1", "Part01"]) == ["PART001", "part1", "Part01"])
    }

    @Test func longNumbersDoNotOverflow() {
        let names = ["x99999999999999999999999", "x100000000000000000000000", "x5"]
        #expect(NaturalSort.sorted(names) == ["x5", "x99999999999999999999999", "x100000000000000000000000"])
    }

    @Test func pathsCompareFolderByFolder() {
        let names = ["disc10/track1.mp3", "disc2/track10.mp3", "disc2/track9.mp3", "disc2 extra/a.mp3"]
        #expect(NaturalSort.sorted(names) == ["disc2/track9.mp3", "disc2/track10.mp3", "disc2 extra/a.mp3", "disc10/track1.mp3"])
    }

    @Test func prefixSortsFirst() {
        #expect(NaturalSort.sorted(["chapter 1b", "chapter 1"]) == ["chapter 1", "chapter 1b"])
    }
}

@Suite struct JunkFileFilterTests {
    @Test(arguments: [".DS_Store", "Test Audiobook/.DS_Store", "Thumbs.db", "THUMBS.DB", "desktop.ini", ".hidden",
                      "a/.git/config", "__MACOSX/Test Audiobook/._Latin.mp3", "x/__MACOSX/y.mp3"])
    func junkIsRecognized(_ href: String) {
        #expect(JunkFileFilter.isJunk(href))
    }

    @Test(arguments: ["Test Audiobook/Latin.mp3", "track.mp3", "a.b/c.mp3", "thumbs.db.mp3"])
    func contentIsKept(_ href: String) {
        #expect(!JunkFileFilter.isJunk(href))
    }
}
