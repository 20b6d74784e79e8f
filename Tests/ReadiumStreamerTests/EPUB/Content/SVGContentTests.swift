// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// SVG content documents in the spine are read (EPUB 3.3 §6.2; W3C pkg-spine-order-svg): their `text`
/// elements in document order (`tspan`s and `textPath`s within them), each with a selector and a quote of
/// its own; `title` and `desc` only where they are the document's only text; a drawing with no text at all
/// stays an image.
@Suite struct SVGContentTests {
    static let svgNamespace = "http://www.w3.org/2000/svg"

    /// An EPUB folder whose spine is `pages` (file name, SVG source), opened with the content service.
    static func book(_ pages: [(String, String)]) throws -> (Publication, URL) {
        let folder = try TestBooks.epub(pages: pages.map { ($0.0, "image/svg+xml", $0.1) }, language: "en")
        let publication = try EPUBParser().parse(container: FolderContainer(url: folder))
        return (EPUBContentService.attach(to: publication), folder)
    }

    static func texts(_ publication: Publication) throws -> [TextContentElement] {
        try publication.content(from: nil).elements().compactMap { $0 as? TextContentElement }
    }

    @Test func textElementsAreReadInOrderWithTheirSpansAndPaths() throws {
        let (publication, folder) = try Self.book([("a.svg", """
            <svg xmlns="\(Self.svgNamespace)" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 200">\
            <title>A map</title><desc>Two labels on a road.</desc><style>text { font: 12px serif; }</style>\
            <defs><path id="road" d="M10 80 Q 95 10 180 80"/></defs>\
            <text x="10" y="30">The <tspan font-weight="bold">old</tspan> mill</text>\
            <g><text><textPath xlink:href="#road">along the river road</textPath></text></g></svg>
            """)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let texts = try Self.texts(publication)
        #expect(texts.map { $0.segments.map(\.text).joined() } == ["The old mill", "along the river road"])
        #expect(texts.map(\.locator.locations.cssSelector) == ["svg > text:nth-child(5)", "svg > g:nth-child(6) > text:nth-child(1)"])
        #expect(texts.first?.locator.type == "image/svg+xml")
        // Each quote is the element's own text, found where its selector points.
        var checker = LocatorQuoteChecker(publication: publication)
        for text in texts {
            #expect(checker.problem(with: text.locator) == nil)
            for segment in text.segments { #expect(checker.problem(with: segment.locator) == nil) }
        }
    }

    @Test func aDrawingWhoseOnlyTextIsItsTitleAndDescriptionIsReadByThem() throws {
        let (publication, folder) = try Self.book([("b.svg", """
            <svg xmlns="\(Self.svgNamespace)" viewBox="0 0 10 10"><title>A lighthouse</title><desc>Its lamp is lit.</desc>\
            <circle cx="5" cy="5" r="4"/></svg>
            """)])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.texts(publication).map { $0.segments.map(\.text).joined() } == ["A lighthouse", "Its lamp is lit."])
    }

    @Test func aDrawingWithNoTextStaysAnImage() throws {
        let (publication, folder) = try Self.book([("c.svg", "<svg xmlns=\"\(Self.svgNamespace)\"><rect width=\"4\" height=\"4\"/></svg>")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let elements = try publication.content(from: nil).elements()
        #expect(elements.count == 1 && elements.first is ImageContentElement)
    }

    @Test(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
    func theW3CSpineOfSVGPagesIsReadPageByPage() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/w3c-epub-tests/pkg-spine-order-svg.epub"))
        let texts = try Self.texts(publication).map { $0.segments.map(\.text).joined() }
        #expect(texts == ["Test passes if you can", "move through the pages", "all the way to page 4", "Page 1", "Page 2", "Page 3", "Page 4"])
    }
}
