// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

@Suite("EPUBParser metadata, reading order and navigation of representative books", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct EPUBParserCorpusDetailTests {
    @Test func childrensLiteratureHasTitlesCreatorsWithSortAsAndANavTOC() throws {
        let publication = try EPUBTestSupport.open("epub/idpf-epub3-samples/childrens-literature.epub")
        let metadata = publication.metadata
        #expect(metadata.title?.string == "Children's Literature")
        #expect(metadata.identifier == "http://www.gutenberg.org/ebooks/25545")
        #expect(metadata.modified == "2010-02-17T04:39:13Z")
        #expect(metadata.languages == ["en"])
        #expect(metadata.authors.map(\.name.string) == ["Charles Madison Curry", "Erle Elsworth Clippinger"])
        #expect(metadata.authors.map(\.sortAs) == ["Curry, Charles Madison", "Clippinger, Erle Elsworth"])
        #expect(publication.readingOrder.count == 3)
        // One entry per <a> (or <span> heading with children) of each <nav>, counted in the file itself.
        let nav = String(decoding: try publication.resource(at: "EPUB/nav.xhtml").read(), as: UTF8.self)
        let sections = nav.components(separatedBy: "<nav ")
        func anchors(_ section: String) -> Int { section.components(separatedBy: "<a ").count - 1 }
        func spanHeadings(_ section: String) -> Int { section.components(separatedBy: "<span").count - 1 }
        let toc = publication.tableOfContents.flatMap(\.flattened)
        #expect(toc.count == anchors(sections[1]) + spanHeadings(sections[1]))
        #expect(publication.manifest.landmarks.count == anchors(sections[2]))
        #expect(publication.manifest.pageList.count == anchors(sections[3]))
        #expect(toc.first?.href == "EPUB/s04.xhtml#pgepubid00492")
        #expect(toc.first?.title == "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES")
        #expect(toc.contains { $0.title == "I. The Rabbi and the Diadem" })
        #expect(publication.readingOrder[1].href == "EPUB/nav.xhtml")
        #expect(publication.readingOrder[1].rels.contains("contents"))
    }

    @Test func wastelandHasOneSpineItemAndTOC() throws {
        let publication = try EPUBTestSupport.open("epub/idpf-epub3-samples/wasteland.epub")
        #expect(publication.metadata.title?.string == "The Waste Land")
        #expect(publication.metadata.authors.map(\.name.string) == ["T.S. Eliot"])
        #expect(publication.metadata.languages == ["en-US"])
        #expect(publication.metadata.identifier == "code.google.com.epub-samples.wasteland-basic")
        #expect(publication.readingOrder.count == 1)
        #expect(!publication.tableOfContents.isEmpty)
        #expect(publication.tableOfContents.allSatisfy { $0.href.hasPrefix(publication.readingOrder[0].href) })
    }

    @Test func tiny2NCXReadsTheEPUB2NCXAndKeepsTheNonLinearItemMarked() throws {
        let publication = try EPUBTestSupport.open("epub/readium-test-files/Tiny-2-NCX.epub")
        #expect(publication.metadata.title?.string == "Tiny EPUB 2 Linear")
        #expect(publication.metadata.identifier == "84dd978d-7d9f-473a-a27d-ff9635c2202a")
        let names = publication.readingOrder.map { URL(fileURLWithPath: $0.href).lastPathComponent }
        #expect(names == ["titlepage.xhtml", "chapter01.xhtml", "chapter02.xhtml", "NotAChapter.xhtml"])
        #expect(publication.readingOrder.last?.properties["linear"] == .bool(false))
        #expect(publication.readingOrder.first?.properties["linear"] == nil)
        #expect(publication.tableOfContents.map(\.title) == ["I. First Chapter", "2. Second Chapter", "NOT A Chapter"])
        #expect(publication.manifest.resources.contains { $0.type == MediaType.ncx.string })
    }

    @Test func smokeTestEPUB2OpensWithNCXTableOfContents() throws {
        let publication = try EPUBTestSupport.open("epub/readium-test-files/SmokeTest-EPUB2.epub")
        #expect(publication.metadata.title?.string == "SmokeTest - EPUB 2")
        #expect(publication.metadata.identifier == "org.readium.smoketest.epub2")
        #expect(publication.readingOrder.count == 3)
        #expect(!publication.tableOfContents.isEmpty)
    }

    @Test func regimeAnticancerArabicIsRightToLeftWithATranslator() throws {
        let publication = try EPUBTestSupport.open("epub/idpf-epub3-samples/regime-anticancer-arabic.epub")
        let metadata = publication.metadata
        #expect(metadata.readingProgression == "rtl")
        #expect(metadata.languages == ["ar"])
        #expect(metadata.title?.string == "Le Vrai Régime anti-cancer")
        #expect(metadata.authors.map(\.name.string) == ["Pr David Khayat", "Nathalie Hutter-Lardeau"])
        #expect(metadata.contributors["translator"]?.map(\.name.string) == ["Marina Khalil Fayad"])
        #expect(metadata.contributors["contributor"]?.first?.roles == ["mrk"])
        #expect(metadata.contributors["contributor"]?.first?.sortAs == "Gros, Vincent")
    }

    @Test func kusamakuraIsJapaneseRightToLeftWithKanjiHrefs() throws {
        let publication = try EPUBTestSupport.open("epub/idpf-epub3-samples/kusamakura-japanese-vertical-writing.AUDIO-MISSING.epub")
        let metadata = publication.metadata
        #expect(metadata.title?.string(for: "ja-JP") == "草枕")
        #expect(metadata.title?.string(for: "en") == "Kusamakura")
        #expect(metadata.sortAs == "くさまくら")
        #expect(metadata.languages == ["ja-jp"])
        #expect(metadata.readingProgression == "rtl")
        #expect(metadata.authors.first?.name.string(for: "ja") == "夏目 漱石")
        #expect(metadata.authors.first?.sortAs == "なつめ そうせき")
        #expect(publication.readingOrder.count == 16)
        #expect(publication.readingOrder[1].properties["linear"] == .bool(false))
        let chapter = try #require(publication.readingOrder.first { $0.href.removingPercentEncoding == "OPS/xhtml/一.xhtml" })
        #expect(try publication.resource(at: chapter.href).length() > 0)
        #expect(chapter.properties["mediaOverlay"]?.stringValue?.removingPercentEncoding == "OPS/xhtml/一.smil")
        #expect(!publication.tableOfContents.isEmpty)
    }

    @Test func pkgSpineOrderFollowsTheSpineNotTheManifest() throws {
        let publication = try EPUBTestSupport.open("epub/w3c-epub-tests/pkg-spine-order.epub")
        #expect(publication.readingOrder.map(\.href) == [
            "EPUB/d-content_001.xhtml", "EPUB/c-content_002.xhtml", "EPUB/b-content_003.xhtml", "EPUB/a-content_004.xhtml",
        ])
    }

    @Test func nonLinearSpineItemStaysInReadingOrderMarked() throws {
        let publication = try EPUBTestSupport.open("epub/w3c-epub-tests/pkg-spine-nonlinear-activation.epub")
        #expect(publication.readingOrder.count == 2)
        #expect(publication.readingOrder.filter { $0.properties["linear"] == .bool(false) }.count == 1)
    }

    /// W3C pkg-spine-duplicate-item-rendering: "the reading system must not skip the duplicates".
    @Test func aDuplicateSpineItemIsKeptAtEachOfItsPlaces() throws {
        let publication = try EPUBTestSupport.open("epub/w3c-epub-tests/pkg-spine-duplicate-item-rendering.epub")
        #expect(publication.readingOrder.map(\.href) == ["EPUB/content_001.xhtml"] + Array(repeating: "EPUB/content_002.xhtml", count: 3))
        #expect(!publication.warnings.contains { $0.message.contains("spine") }, "\(publication.warnings)")
        #expect(publication.readingOrder.map { $0.properties["occurrence"] } == [nil, nil, .integer(2), .integer(3)])
    }

    @Test func mobyDickHas144SpineItemsWithMediaOverlaysAndDurations() throws {
        let path = "epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub"
        let publication = try EPUBTestSupport.open(path)
        let opf = String(decoding: try publication.resource(at: "OPS/package.opf").read(), as: UTF8.self)
        let itemrefs = opf.components(separatedBy: "<itemref").count - 1
        #expect(itemrefs == 144)
        #expect(publication.readingOrder.count == itemrefs)
        #expect(publication.metadata.duration == 23 * 60 + 23.5)
        #expect(publication.metadata.otherMetadata["mediaOverlay"]?.objectValue?["activeClass"] == .string("-epub-media-overlay-active"))
        let chapter1 = try #require(publication.readingOrder.first { $0.href == "OPS/chapter_001.xhtml" })
        #expect(chapter1.properties["mediaOverlay"] == .string("OPS/chapter_001_overlay.smil"))
        #expect(chapter1.duration == 14 * 60 + 20.5)
        let smil = try #require(publication.manifest.resources.first { $0.href == "OPS/chapter_001_overlay.smil" })
        #expect(smil.type == MediaType.smil.string)
        #expect(smil.duration == 14 * 60 + 20.5)
    }

    @Test func tiny3BadWithAllSpineItemsMissingIsAnError() {
        #expect {
            try EPUBTestSupport.open("epub/readium-test-files/TIny-3-Bad.epub")
        } throws: { error in
            guard let error = error as? EPUBError else { return false }
            return error.code == .noReadableContent && error.message.contains("none of the 4 spine items")
        }
    }

    @Test func obfuscatedFontsAreNotDRM() throws {
        let publication = try EPUBTestSupport.open("epub/readium-test-files/SmokeTestFXL.epub")
        #expect(try publication.resource(at: "META-INF/encryption.xml").length() > 0)
        #expect(publication.protection == nil)
        #expect(publication.metadata.otherMetadata["presentation"]?.objectValue?["layout"] == .string("fixed"))
    }
}
