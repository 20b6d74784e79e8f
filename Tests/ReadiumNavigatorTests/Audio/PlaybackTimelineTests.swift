// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing
@testable import ReadiumNavigator

@Suite("PlaybackTimeline")
struct PlaybackTimelineTests {
    static let readingOrder = [
        Link(href: "a.mp3", type: "audio/mpeg", title: "A", duration: 10),
        Link(href: "b.ogg", type: "audio/ogg", title: "B", duration: 20),
        Link(href: "c.mp3", title: "C", duration: 5),
    ]
    static let toc = [
        Link(href: "a.mp3", title: "Part 1", children: [
            Link(href: "a.mp3", title: "Chapter 1"),
            Link(href: "a.mp3#t=4", title: "Chapter 1.1"),
        ]),
        Link(href: "b.ogg#t=2.5", title: "Chapter 2"),
    ]
    let timeline = PlaybackTimeline(readingOrder: readingOrder, tableOfContents: toc)

    @Test func publicationTimeMapsToTrackAndSecondsAndBack() {
        #expect(timeline.totalDuration == 35)
        #expect(timeline.position(atTime: 0) == (0, 0))
        #expect(timeline.position(atTime: 9.5) == (0, 9.5))
        #expect(timeline.position(atTime: 10) == (1, 0))
        #expect(timeline.position(atTime: 31) == (2, 1))
        #expect(timeline.time(track: 2, seconds: 1) == 31)
        #expect(timeline.startTime(ofTrack: 1) == 10)
    }

    @Test func timesOutsideThePublicationAreClamped() {
        #expect(timeline.position(atTime: -3) == (0, 0))
        #expect(timeline.position(atTime: 1000) == (2, 5))
        #expect(timeline.position(atTime: .nan) == (0, 0))
    }

    @Test func unknownDurationsMakePublicationTimeUnknownUntilProbed() {
        var timeline = PlaybackTimeline(readingOrder: [Link(href: "a.mp3", duration: 10), Link(href: "b.mp3"), Link(href: "c.mp3", duration: 3)])
        #expect(timeline.totalDuration == nil)
        #expect(timeline.time(track: 2, seconds: 1) == nil)
        #expect(timeline.time(track: 1, seconds: 1) == 11)
        #expect(timeline.position(atTime: 50) == (1, 40))
        #expect(timeline.locator(track: 2, seconds: 1).locations.totalProgression == nil)
        timeline.setDuration(7, ofTrack: 1)
        #expect(timeline.totalDuration == 20)
        #expect(timeline.position(atTime: 50) == (2, 3))
        #expect(timeline.locator(track: 2, seconds: 1).locations.totalProgression == 18.0 / 20)
    }

    @Test func locatorCarriesHrefTypeTimeAndProgressions() {
        let locator = timeline.locator(track: 1, seconds: 5.0004)
        #expect(locator.href == "b.ogg")
        #expect(locator.type == "audio/ogg")
        #expect(locator.locations.fragments == ["t=5"])
        #expect(locator.locations.progression == 5.0004 / 20)
        #expect(abs((locator.locations.totalProgression ?? 0) - 15.0004 / 35) < 1e-12)
        #expect(timeline.locator(track: 0, seconds: 1.23456).locations.fragments == ["t=1.235"])
        #expect(timeline.locator(track: 2, seconds: 0).type == "audio/mpeg")
        let end = timeline.locator(track: 2, seconds: 99)
        #expect(end.locations.fragments == ["t=5"] && end.locations.progression == 1 && end.locations.totalProgression == 1)
    }

    @Test func titleIsTheDeepestLatestTableOfContentsEntryStartedAtThatTime() {
        #expect(timeline.title(track: 0, seconds: 0) == "Chapter 1")
        #expect(timeline.title(track: 0, seconds: 3.99) == "Chapter 1")
        #expect(timeline.title(track: 0, seconds: 4) == "Chapter 1.1")
        // Before the only entry of track 1 starts: the reading order's title.
        #expect(timeline.title(track: 1, seconds: 1) == "B")
        #expect(timeline.title(track: 1, seconds: 2.5) == "Chapter 2")
        #expect(timeline.title(track: 2, seconds: 1) == "C")
    }

    @Test func locatorTargetsHonourTimeThenProgressionThenTotalProgression() throws {
        #expect(try timeline.target(for: Locator(href: "b.ogg", type: "audio/ogg", locations: .init(fragments: ["t=3,7.5"])))
                == AudioTarget(track: 1, seconds: 3, clipEnd: 7.5))
        #expect(try timeline.target(for: Locator(href: "b.ogg", type: "audio/ogg", locations: .init(progression: 0.25)))
                == AudioTarget(track: 1, seconds: 5))
        #expect(try timeline.target(for: Locator(href: "a.mp3", type: "audio/mpeg", locations: .init(totalProgression: 0.5)))
                == AudioTarget(track: 1, seconds: 7.5))
        #expect(try timeline.target(for: Locator(href: "c.mp3#t=2", type: "audio/mpeg")) == AudioTarget(track: 2, seconds: 2))
        #expect(try timeline.target(for: Link(href: "b.ogg#t=12")) == AudioTarget(track: 1, seconds: 12))
    }

    @Test func unknownHrefIsAnError() {
        #expect(throws: AudioNavigatorError(.unknownHref, message: "z.mp3 is not in the reading order")) {
            try timeline.target(for: Locator(href: "z.mp3", type: "audio/mpeg"))
        }
        #expect(throws: AudioNavigatorError.self) { try timeline.target(for: Link(href: "z.mp3#t=1")) }
    }

    @Test func progressionInATrackOfUnknownDurationCannotBePlaced() {
        let timeline = PlaybackTimeline(readingOrder: [Link(href: "a.mp3")])
        #expect(throws: AudioNavigatorError.self) {
            try timeline.target(for: Locator(href: "a.mp3", type: "audio/mpeg", locations: .init(progression: 0.5)))
        }
    }
}
