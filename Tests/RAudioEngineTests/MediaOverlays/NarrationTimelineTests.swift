// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// The narration's timeline built from real SMIL files: clips back to back, text-to-speech items of
/// no duration, times placed on the `par` whose clip covers them.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct NarrationTimelineTests {
    @Test func narrationTimeIsTheClipsBackToBackAndATimeLandsOnTheParWhoseClipCoversIt() throws {
        let publication = try NarrationFixtures.open(NarrationFixtures.navigation)
        let pars = try NarrationFixtures.recordedPars(of: publication)
        let plan = NarrationPlan(publication: publication)
        let timeline = plan.timeline
        #expect(plan.items.count == pars.count)
        let total = try #require(timeline.totalDuration)
        #expect(abs(total - pars.reduce(0) { $0 + $1.duration }) < 1e-9)
        #expect(abs(total - 36.266) < 1e-6) // the package's media:duration
        #expect(timeline.isFullyTimed)
        for (index, par) in pars.enumerated() {
            let middle = try #require(timeline.position(atTime: par.start + par.duration / 2))
            #expect(middle.item == index && abs(middle.seconds - par.duration / 2) < 1e-9)
            // A clip's start belongs to it, not to the clip that ends there.
            #expect(timeline.position(atTime: par.start)?.item == index)
            #expect(abs((plan.items[index].locator.locations.totalProgression ?? -1) - par.start / total) < 1e-12)
            #expect(timeline.time(item: index, seconds: 1e6) == par.start + par.duration)
        }
        #expect(timeline.position(atTime: -5).map { [Double($0.item), $0.seconds] } == [0, 0])
        let end = try #require(timeline.position(atTime: 1e6))
        #expect(end.item == pars.count - 1 && abs(end.seconds - pars[pars.count - 1].duration) < 1e-9)
    }

    @Test func textToSpeechItemsTakeNoTimeAreNeverLandedOnAndMakeProgressionCountItems() throws {
        let publication = try NarrationFixtures.open(NarrationFixtures.daisy)
        let pars = try NarrationFixtures.recordedPars(of: publication)
        let plan = NarrationPlan(publication: publication)
        let spoken = plan.items.indices.filter { plan.items[$0].clip == nil }
        #expect(!spoken.isEmpty, "front.xhtml has no overlay: it is read with text-to-speech")
        #expect(spoken.allSatisfy { plan.timeline.durations[$0] == 0 })
        let firstRecorded = try #require(plan.items.firstIndex { $0.clip != nil })
        #expect(plan.timeline.position(atTime: 0)?.item == firstRecorded)
        #expect(abs((plan.timeline.totalDuration ?? 0) - pars.reduce(0) { $0 + $1.duration }) < 1e-9)
        // The text-to-speech items have no known length: totalProgression counts items.
        #expect(!plan.timeline.isFullyTimed)
        let count = Double(plan.items.count)
        #expect(plan.items.indices.allSatisfy { plan.items[$0].locator.locations.totalProgression == Double($0) / count })
        // A time past the front matter lands on the recorded par covering it, whatever its audio file.
        let target = pars[70]
        let position = try #require(plan.timeline.position(atTime: target.start + 0.25))
        #expect(plan.items[position.item].clip == target.clip)
        #expect(abs(position.seconds - 0.25) < 1e-9)
    }

    @Test func aNarrationReadAllWithTextToSpeechHasNoTimeToSeekIn() throws {
        let publication = try NarrationFixtures.open(NarrationFixtures.navigation)
        let plan = NarrationPlan(publication: publication, options: .init(forceTextToSpeech: true))
        #expect(!plan.items.isEmpty)
        #expect(!plan.timeline.hasRecordedTime && !plan.timeline.isFullyTimed)
        #expect(plan.timeline.position(atTime: 3) == nil)
    }
}
