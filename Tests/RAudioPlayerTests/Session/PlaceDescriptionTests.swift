// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// How a place is said: the time into the chapter the title names (not into its track), the time in the
/// book and its length; every time and length by one rule (whole seconds rounded down).
@Suite struct PlaceDescriptionTests {
    /// A single-file M4B: three chapters at 0, 100 and 250 s of one 400.6 s track.
    static func singleFileBook() -> ChapterMap {
        let track = Link(href: "book.m4b", type: "audio/mp4", duration: 400.6)
        let toc = [Link(href: "book.m4b#t=0", title: "Part 1"), Link(href: "book.m4b#t=100", title: "Part 2"), Link(href: "book.m4b#t=250", title: "Part 3")]
        let publication = Publication(manifest: Manifest(metadata: Metadata(title: .plain("M4B")), readingOrder: [track], tableOfContents: toc),
                                      container: SessionBooks.EmptyContainer(), mediaType: .epub)
        return ChapterMap(publication: publication, timeline: PlaybackTimeline(readingOrder: [track], tableOfContents: toc))
    }

    static func audio(_ seconds: Double, title: String? = nil) -> Locator {
        Locator(href: "book.m4b", type: "audio/mp4", title: title, locations: .init(fragments: ["t=\(seconds)"]))
    }

    @Test func everyChapterOfASingleFileBookCountsFromItsOwnStart() {
        let chapters = Self.singleFileBook()
        #expect(PlaceDescription.describe(Self.audio(6.2, title: "Part 1"), chapters: chapters) == "0:06 into Part 1 · 0:06 / 6:40")
        #expect(PlaceDescription.describe(Self.audio(106.9, title: "Part 2"), chapters: chapters) == "0:06 into Part 2 · 1:46 / 6:40")
        #expect(PlaceDescription.describe(Self.audio(256, title: "Part 3"), chapters: chapters) == "0:06 into Part 3 · 4:16 / 6:40")
    }

    @Test func withoutTheChaptersATimeInTheTrackIsNotShownBesideAChapterTitle() {
        var locator = Self.audio(82, title: "Part 2")
        locator.locations.totalProgression = 0.2
        #expect(PlaceDescription.describe(locator, chapters: nil) == "Part 2 · 20%")
    }

    @Test func aTextPlaceNamesTheChapterSavedWithIt() {
        var locator = SessionBooks.text("OEBPS/book.xhtml", 0.5, "I stuffed a shirt.")
        locator.title = "Chapter 2. The Carpet-Bag"
        #expect(PlaceDescription.describe(locator, chapters: nil) == "Chapter 2. The Carpet-Bag · “I stuffed a shirt.”")
    }

    @Test(arguments: [(1270.6, "21:10"), (59.999, "0:59"), (3725.9, "1:02:05"), (-3, "0:00"), (.nan, "0:00"), (.infinity, "0:00")])
    func oneRoundingRuleForEveryTime(seconds: Double, shown: String) {
        #expect(PlaceDescription.clock(seconds) == shown)
    }
}
