// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

@testable import ReadiumNavigator

/// The progressive plan of a narration: the first documents at once, the others' text-to-speech
/// passages on a thread of its own, ending equal to the plan built whole.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct NarrationPlanBuilderTests {
    static let mobyDick = "epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub"

    /// The plan of moby-dick built whole, the reference each test compares with: built once for the suite
    /// (seconds of a debug build's time), from a publication of its own that no builder or navigator touches.
    static let mobyDickWholePlan: Result<NarrationPlan, any Error> = Result {
        NarrationPlan(publication: try EPUBParser().parse(container: ZIPContainer(url: Corpus.file(mobyDick))))
    }

    func open(_ book: String) throws -> Publication {
        try EPUBParser().parse(container: ZIPContainer(url: Corpus.file(book)))
    }

    /// The items without the `totalProgression` only a complete plan sets.
    func withoutTotalProgression(_ items: some Sequence<NarrationItem>) -> [NarrationItem] {
        items.map { item in
            var item = item
            item.locator.locations.totalProgression = nil
            return item
        }
    }

    @Test func aBookWithManyTextToSpeechDocumentsIsPlannedInPartAtOnceAndEndsEqualToTheWholePlan() async throws {
        let whole = try Self.mobyDickWholePlan.get()
        let publication = try open(Self.mobyDick)
        let warnings = Locked<[String]>([])
        let builder = NarrationPlanBuilder(publication: publication, options: .init(), onWarning: { issue in
            warnings.withLock { $0.append(issue.message) }
        })
        #expect(builder.documentsPlannedAtInit >= 2 && builder.documentsPlannedAtInit < publication.readingOrder.count / 2)
        let first = builder.plan
        #expect(!first.items.isEmpty && first.items.count < whole.items.count)
        // What is planned so far is the start of the whole plan, item for item.
        #expect(withoutTotalProgression(first.items) == withoutTotalProgression(whole.items.prefix(first.items.count)))
        let complete = await builder.complete()
        #expect(complete.isComplete)
        #expect(complete.items == whole.items)
        #expect(complete.timeline == whole.timeline)
        #expect(complete.warnings.map(\.message) == whole.warnings.map(\.message))
        // Warnings found after init are reported as they come, once each.
        #expect(first.warnings.map(\.message) + warnings.withLock { $0 } == whole.warnings.map(\.message))
    }

    @Test func waitingForAnItemNotPlannedYetReturnsOnceItsDocumentIsPlanned() throws {
        let whole = try Self.mobyDickWholePlan.get()
        let builder = NarrationPlanBuilder(publication: try open(Self.mobyDick), options: .init(), onWarning: { _ in })
        let last = whole.items.count - 1
        let plan = builder.waitForItem(last)
        #expect(plan.items.count > last)
        #expect(withoutTotalProgression([plan.items[last]]) == withoutTotalProgression([whole.items[last]]))
        // Past the end: returns with the complete plan, which does not have it.
        let after = builder.waitForItem(whole.items.count)
        #expect(after.isComplete && after.items.count == whole.items.count)
    }

    @Test func aPartialPlansTimelinePlacesTimesBeforeItsEndAsTheWholePlanDoes() throws {
        let whole = try Self.mobyDickWholePlan.get()
        let firstPar = try #require(whole.items.firstIndex { $0.clip != nil })
        let builder = NarrationPlanBuilder(publication: try open(Self.mobyDick), options: .init(), onWarning: { _ in })
        #expect(!builder.plan.timeline.hasRecordedTime, "the first documents planned have no overlay")
        let partial = builder.waitForItem(firstPar)
        let end = try #require(partial.timeline.totalDuration)
        #expect(end > 0)
        for time in stride(from: 0, to: end, by: end / 50) {
            #expect(partial.timeline.placesFinally(time))
            #expect(partial.timeline.position(atTime: time).map { [Double($0.item), $0.seconds] }
                == whole.timeline.position(atTime: time).map { [Double($0.item), $0.seconds] })
            let item = try #require(partial.timeline.position(atTime: time)?.item)
            #expect(partial.timeline.startTime(ofItem: item) == whole.timeline.startTime(ofItem: item))
        }
        if !partial.isComplete { #expect(!partial.timeline.placesFinally(end)) }
    }

    @Test func aFullyRecordedNarrationIsPlannedWholeAtOnce() throws {
        let publication = try open("epub/w3c-epub-tests/mol-navigation.epub")
        let builder = NarrationPlanBuilder(publication: publication, options: .init(), onWarning: { _ in })
        #expect(builder.documentsPlannedAtInit == publication.readingOrder.count)
        #expect(builder.plan.isComplete)
        #expect(builder.plan.items == NarrationPlan(publication: publication).items)
    }

    @Test func goingToADocumentNotPlannedYetWaitsForItAndLandsThere() async throws {
        let publication = try open(Self.mobyDick)
        let whole = try Self.mobyDickWholePlan.get()
        let target = try #require(whole.items.last)
        let navigator = try MediaOverlayNavigator(publication: publication, components: AudioEngineComponents.make(output: .null), engine: nil)
        try await navigator.go(to: Locator(href: NarrationPlan.split(target.locator.href).path, type: "application/xhtml+xml"))
        let index = await navigator.currentItem
        #expect(whole.items[index].readingOrderIndex == target.readingOrderIndex)
        #expect(await navigator.completePlan().items == whole.items)
        await navigator.close()
    }
}
