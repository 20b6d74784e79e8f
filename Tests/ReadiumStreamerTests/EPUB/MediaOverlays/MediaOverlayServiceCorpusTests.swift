// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct MediaOverlayServiceCorpusTests {
    @Test func narrationOfMolNavigationFollowsTheSMILOrder() throws {
        let publication = try EPUBTestSupport.open("epub/w3c-epub-tests/mol-navigation.epub")
        let service = try #require(publication.mediaOverlays)
        let index = try #require(publication.readingOrder.firstIndex { $0.mediaOverlayHref != nil })
        let overlay = try #require(try service.mediaOverlay(at: index))
        #expect(overlay.pars.count == 4)
        #expect(overlay.pars.allSatisfy { $0.textPath == overlay.documentHref })
        let begins = overlay.pars.compactMap { $0.audio?.begin }
        #expect(begins == begins.sorted())
        #expect(overlay.pars.filter { $0.textFragment == "mo-3" }.count == 2)
    }

    @Test func aSMILSharedByContentDocumentsIsSplitByTextHref() throws {
        let publication = try EPUBTestSupport.open("epub/readium-test-files/SmokeTestFXL.epub")
        let service = try #require(publication.mediaOverlays)
        let narrated = publication.readingOrder.indices.filter { service.hasMediaOverlay(at: $0) }
        #expect(narrated.count == 6)
        var bySMIL: [String: Int] = [:]
        for index in narrated {
            let overlay = try #require(try service.mediaOverlay(at: index))
            #expect(!overlay.pars.isEmpty)
            #expect(overlay.pars.allSatisfy { $0.textPath == overlay.documentHref })
            bySMIL[overlay.smilHref, default: 0] += overlay.pars.count
        }
        let basic = try SMILParser.parse(publication.resource(at: "mo/basic_tests.smil").read(), href: "mo/basic_tests.smil").pars
        #expect(bySMIL["mo/basic_tests.smil"] == basic.filter { $0.textHref != nil }.count)
    }

    @Test func itemsWithoutOverlayHaveNoneAndBooksWithoutOverlaysNoService() throws {
        let publication = try EPUBTestSupport.open("epub/daisy/epub30-test-0320-media-overlays.PARTIAL-AUDIO.epub")
        let service = try #require(publication.mediaOverlays)
        #expect(!service.hasMediaOverlay(at: 0))
        #expect(try service.mediaOverlay(at: 0) == nil)
        #expect(try service.mediaOverlay(at: 1)?.pars.count == 16)
        let plain = try EPUBTestSupport.open("epub/readium-test-files/SmokeTest-EPUB2.epub")
        #expect(plain.mediaOverlays == nil)
    }

    @Test(arguments: ["mediaoverlays-minimal-valid", "mediaoverlays-textref-fragment-unresolved-error", "mediaoverlays-text-reading-order-error", "mediaoverlays-audio-non-cmt-error"])
    func epubCheckMediaOverlayBooksParse(name: String) throws {
        let publication = try EPUBTestSupport.open("epub/epubcheck-edge/\(name).epub")
        let service = try #require(publication.mediaOverlays)
        let index = try #require(publication.readingOrder.indices.first { service.hasMediaOverlay(at: $0) })
        let overlay = try #require(try service.mediaOverlay(at: index))
        #expect(!overlay.pars.isEmpty)
        #expect(overlay.pars.allSatisfy { $0.audio != nil })
    }
}
