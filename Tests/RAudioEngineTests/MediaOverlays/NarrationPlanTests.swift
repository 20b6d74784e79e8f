// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

@testable import ReadiumNavigator

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct NarrationPlanTests {
    func open(_ book: String) throws -> Publication {
        try EPUBParser().parse(container: ZIPContainer(url: Corpus.file(book)))
    }

    @Test func escapeLeavesTheInnermostEscapableSeqOfTheParBeingRead() throws {
        let plan = NarrationPlan(publication: try open("epub/readium-test-files/SmokeTestFXL.epub"), options: .init(speakDocumentsWithoutNarration: false))
        let inGlossary = try #require(plan.items.firstIndex { $0.par?.textHref == "xhtml/media-overlays-005.xhtml#mo-010-4" })
        let after = try #require(plan.indexAfterEscaping(from: inGlossary))
        #expect(plan.items[after].par?.textFragment == "mo-010-6")
        let outside = try #require(plan.items.firstIndex { $0.par?.textHref == "xhtml/media-overlays-005.xhtml#mo-010-2" })
        #expect(plan.indexAfterEscaping(from: outside) == nil)
    }

    @Test func skippedTypesLeaveOutParsInsideThem() throws {
        let publication = try open("epub/readium-test-files/SmokeTestFXL.epub")
        let all = NarrationPlan(publication: publication, options: .init(speakDocumentsWithoutNarration: false))
        let skipping = NarrationPlan(publication: publication, options: .init(speakDocumentsWithoutNarration: false, skippedTypes: ["pagebreak"]))
        let pagebreaks = all.items.filter { $0.par?.allTypes.contains("pagebreak") == true }.count
        #expect(pagebreaks == 3)
        #expect(skipping.items.count == all.items.count - pagebreaks)
        #expect(!skipping.items.contains { $0.par?.allTypes.contains("pagebreak") == true })
    }

    @Test func aLocatorFindsItsParByFragmentSelectorOrAudioTime() throws {
        let plan = NarrationPlan(publication: try open("epub/w3c-epub-tests/mol-navigation.epub"))
        let byHref = plan.itemIndex(for: Locator(href: "EPUB/ch2.xhtml#mo-2", type: "application/xhtml+xml"))
        #expect(byHref.map { plan.items[$0].par?.textHref } == "EPUB/ch2.xhtml#mo-2")
        var selector = Locator(href: "EPUB/ch1.xhtml", type: "application/xhtml+xml")
        selector.locations.otherLocations["cssSelector"] = .string("#mo-2")
        #expect(plan.itemIndex(for: selector).map { plan.items[$0].par?.textHref } == "EPUB/ch1.xhtml#mo-2")
        let byFragments = Locator(href: "EPUB/ch2.xhtml", type: "application/xhtml+xml", locations: .init(fragments: ["mo-2"]))
        #expect(plan.itemIndex(for: byFragments).map { plan.items[$0].par?.textHref } == "EPUB/ch2.xhtml#mo-2")
        let clip = try #require(plan.items[2].clip)
        let audio = Locator(href: clip.href, type: "audio/mpeg", locations: .init(fragments: ["t=\(clip.begin + 0.01)"]))
        #expect(plan.itemIndex(for: audio) == 2)
        #expect(plan.itemIndex(for: Locator(href: "EPUB/nowhere.xhtml", type: "application/xhtml+xml")) == nil)
    }

    /// A Readium locator's href is the resource, as in the reading order: the `par`'s text fragment goes
    /// in `locations.fragments` (and `cssSelector`) only, or a visual navigator misses the locator.
    @Test(arguments: ["epub/w3c-epub-tests/mol-navigation.epub", "epub/w3c-epub-tests/mol-audio.epub", "epub/w3c-epub-tests/mol-tts_multi.epub",
                      "epub/w3c-epub-tests/mol-timing-synchronization_multiple_audio.epub", "epub/readium-test-files/SmokeTestFXL.epub"])
    func narrationLocatorsNameTheResourceAndPutTheFragmentInLocations(book: String) throws {
        let publication = try open(book)
        let readingOrder = Set(publication.readingOrder.map(\.hrefWithoutFragment))
        let plan = NarrationPlan(publication: publication, options: .init(speakDocumentsWithoutNarration: false))
        let narrated = plan.items.filter(\.isNarration)
        #expect(!narrated.isEmpty)
        for item in narrated {
            #expect(!item.locator.href.contains("#"), "\(item.locator.href)")
            #expect(readingOrder.contains(item.locator.href), "\(item.locator.href)")
            if let fragment = item.par?.textFragment {
                #expect(item.locator.locations.fragments == [fragment])
                #expect(item.locator.locations.cssSelector == "#" + fragment)
            }
        }
    }

    /// A clip end within a frame of the file's end is the file's end, without a `clip-clamped` warning; a
    /// frame or more past it is clamped with one.
    @Test func aClipEndingLessThanAFramePastTheFileIsNoWarning() {
        let format = PCMFormat(sampleRate: 44_100, channelCount: 1)
        let frames: Int64 = 1_348_605  // 30.5806 s
        let rate = 44_100.0
        func end(_ seconds: Double?, fileFrames: Int64?) -> String {
            let result = NarrationRenderSource.endFrame(ofClipEndingAt: seconds, format: format, fileFrames: fileFrames)
            return "\(result.frame.map(String.init) ?? "nil") \(result.isPastTheEnd ? "warning" : "silent")"
        }
        func past(_ extra: Double) -> String { end((Double(frames) + extra) / rate, fileFrames: frames) }
        #expect(past(0) == "\(frames) silent")
        #expect(past(-10) == "\(frames - 10) silent")
        #expect(past(0.6) == "\(frames) silent")
        #expect(past(0.99) == "\(frames) silent")
        #expect(past(1.5) == "\(frames) warning")
        #expect(past(17.6) == "\(frames) warning")
        #expect(end(nil, fileFrames: frames) == "nil silent")
        #expect(end(40, fileFrames: nil) == "1764000 silent")
    }

    @Test func consecutiveClipsOfOneFileShareADecoderAndNeverSeek() throws {
        let publication = try open("epub/w3c-epub-tests/mol-navigation.epub")
        let plan = NarrationPlan(publication: publication)
        let counting = SeekCountingFactory()
        let source = NarrationRenderSource(plan: plan, publication: publication, decoderFactory: counting, engine: nil, onIssue: { _ in })
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        var frames: [Int64] = []
        for index in 0..<4 {
            let decoder = try source.openItem(at: index)
            var total: Int64 = 0
            while case let read = try decoder.read(into: buffer, maxFrames: 4096), read > 0 { total += Int64(read) }
            frames.append(total)
        }
        #expect(counting.opened == 1)
        // mol-navigation's ch1.smil jumps back to #mo-3 once: that one clip seeks, the others run on.
        let clips = plan.items[0..<4].compactMap(\.clip)
        let contiguous = zip(clips, clips.dropFirst()).filter { $0.end == $1.begin }.count
        #expect(counting.seeks <= 1 + (clips.count - 1 - contiguous))
        let rate = 22050.0
        #expect(frames == clips.map { Int64(($0.end! * rate).rounded()) - Int64(($0.begin * rate).rounded()) })
    }
}

/// Real decoders, counting how many are opened and how often they seek.
final class SeekCountingFactory: AudioDecoderFactory, @unchecked Sendable {
    var opened = 0
    var seeks = 0

    func makeDecoder(for resource: any Resource, mediaType: MediaType?) throws(AudioDecoderError) -> any AudioDecoder {
        opened += 1
        return Counting(inner: try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: mediaType), owner: self)
    }

    final class Counting: AudioDecoder {
        let inner: any AudioDecoder
        let owner: SeekCountingFactory
        init(inner: any AudioDecoder, owner: SeekCountingFactory) {
            self.inner = inner
            self.owner = owner
        }
        var format: PCMFormat { inner.format }
        var frameCount: Int64? { inner.frameCount }
        var currentFrame: Int64 { inner.currentFrame }
        func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
            try inner.read(into: buffer, maxFrames: maxFrames)
        }
        func seek(toFrame frame: Int64) throws(AudioDecoderError) {
            owner.seeks += 1
            try inner.seek(toFrame: frame)
        }
    }
}
