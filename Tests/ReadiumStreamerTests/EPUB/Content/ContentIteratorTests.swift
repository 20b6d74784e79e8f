// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer
import Testing

/// A book of `chapterCount` XHTML chapters in a temporary folder, with a counter of parsed resources.
final class SyntheticBook: Sendable {
    let folder: URL
    let publication: Publication
    private let parsed = ParsedHrefs()

    init(chapterCount: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("OEBPS"), withIntermediateDirectories: true)
        var links: [Link] = []
        for chapter in 1...chapterCount {
            let xhtml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en"><head><title>\(chapter)</title></head>
            <body><section id="ch\(chapter)"><h1>Chapter \(chapter)</h1>
            <p>The first paragraph of chapter \(chapter). It has two sentences.</p>
            <p>Mr. Smith arrived in chapter \(chapter) at 10:30. <span epub:type="pagebreak" id="page\(chapter)" title="\(chapter)"/>He was late.</p>
            <p id="last\(chapter)">The last paragraph of chapter \(chapter).</p></section></body></html>
            """
            let name = String(format: "chapter%03d.xhtml", chapter)
            try xhtml.write(to: folder.appendingPathComponent("OEBPS/\(name)"), atomically: true, encoding: .utf8)
            links.append(Link(href: "OEBPS/\(name)", type: "application/xhtml+xml"))
        }
        let base = Publication(
            manifest: Manifest(metadata: Metadata(languages: ["en"]), readingOrder: links),
            container: try FolderContainer(url: folder), mediaType: .epub)
        let parsed = self.parsed
        publication = EPUBContentService.attach(to: base) { href in parsed.append(href) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var parsedHrefs: [String] { parsed.hrefs }
}

/// The hrefs the content service reports as parsed, in order.
final class ParsedHrefs: Sendable {
    private let storage = Locked<[String]>([])
    func append(_ href: String) { storage.withLock { $0.append(href) } }
    var hrefs: [String] { storage.withLock { $0 } }
}

@Suite struct ContentIteratorTests {
    func text(_ element: (any ContentElement)?) -> String? { (element as? TextContentElement)?.text }

    @Test func startingInChapter100ParsesOnlyThatChapter() throws {
        let book = try SyntheticBook(chapterCount: 144)
        let content = try book.publication.content(from: Locator(href: "OEBPS/chapter100.xhtml", type: "application/xhtml+xml"))
        #expect(book.parsedHrefs.isEmpty)
        let iterator = content.iterator()
        #expect(text(try iterator.next()) == "Chapter 100")
        for _ in 0..<3 { _ = try iterator.next() }
        #expect(book.parsedHrefs == ["OEBPS/chapter100.xhtml"])
        #expect(text(try iterator.next()) == "Chapter 101")
        #expect(book.parsedHrefs == ["OEBPS/chapter100.xhtml", "OEBPS/chapter101.xhtml"])
    }

    @Test func previousFromChapter100ReadsChapter99Backwards() throws {
        let book = try SyntheticBook(chapterCount: 144)
        let iterator = try book.publication.content(from: Locator(href: "OEBPS/chapter100.xhtml", type: "application/xhtml+xml")).iterator()
        #expect(text(try iterator.previous()) == "The last paragraph of chapter 99.")
        #expect(book.parsedHrefs == ["OEBPS/chapter100.xhtml", "OEBPS/chapter099.xhtml"])
    }

    @Test func startsAtTheElementOfACSSSelectorOrOfAnEmptyPageMarkerInside() throws {
        let book = try SyntheticBook(chapterCount: 3)
        var locator = Locator(href: "OEBPS/chapter002.xhtml", type: "application/xhtml+xml")
        locator.locations.cssSelector = "#last2"
        #expect(text(try book.publication.content(from: locator).iterator().next()) == "The last paragraph of chapter 2.")
        locator.locations.cssSelector = "#page2"
        #expect(text(try book.publication.content(from: locator).iterator().next())?.hasPrefix("Mr. Smith arrived in chapter 2") == true)
        locator.locations.cssSelector = "html > body > section:nth-child(1) > p:nth-child(2)"
        #expect(text(try book.publication.content(from: locator).iterator().next()) == "The first paragraph of chapter 2. It has two sentences.")
    }

    @Test func startsAtTheTextOfAHighlightOnlyLocator() throws {
        let book = try SyntheticBook(chapterCount: 3)
        let locator = Locator(href: "OEBPS/chapter003.xhtml", type: "application/xhtml+xml", text: Locator.Text(highlight: "It has two sentences."))
        #expect(text(try book.publication.content(from: locator).iterator().next()) == "The first paragraph of chapter 3. It has two sentences.")
    }

    @Test func startsAtTheElementOfAProgressionOnlyLocator() throws {
        let book = try SyntheticBook(chapterCount: 3)
        let elements = try book.publication.content(from: nil).elements().filter { $0.locator.href == "OEBPS/chapter002.xhtml" }
        let target = elements[2]
        let progression = try #require(target.locator.locations.progression) + 0.001
        let locator = Locator(href: "OEBPS/chapter002.xhtml", type: "application/xhtml+xml", locations: Locator.Locations(progression: progression))
        #expect(try book.publication.content(from: locator).iterator().next()?.isSame(as: target) == true)
    }

    @Test func aSelectorMatchingNothingFallsBackToTheProgression() throws {
        let book = try SyntheticBook(chapterCount: 2)
        let elements = try book.publication.content(from: nil).elements().filter { $0.locator.href == "OEBPS/chapter002.xhtml" }
        var locator = elements[3].locator
        locator.locations.cssSelector = "#no-such-id"
        locator.text = Locator.Text()
        #expect(try book.publication.content(from: locator).iterator().next()?.isSame(as: elements[3]) == true)
    }

    @Test func aTotalProgressionFindsTheChapterThatCoversIt() throws {
        let book = try SyntheticBook(chapterCount: 10)
        let service = try #require(book.publication.extensions[ContentServiceKey.key] as? EPUBContentService)
        let locator = try #require(service.locator(atTotalProgression: 0.55))
        #expect(locator.href == "OEBPS/chapter006.xhtml")
        let element = try #require(try book.publication.content(from: locator).iterator().next())
        #expect(element.locator.href == "OEBPS/chapter006.xhtml")
        #expect(abs((element.locator.locations.totalProgression ?? 0) - 0.55) < 0.1)
    }

    @Test func anUnknownHrefIsAnError() throws {
        let book = try SyntheticBook(chapterCount: 2)
        #expect(throws: ContentError.self) {
            _ = try book.publication.content(from: Locator(href: "OEBPS/missing.xhtml", type: "application/xhtml+xml"))
        }
        do {
            _ = try book.publication.content(from: Locator(href: "OEBPS/missing.xhtml", type: "application/xhtml+xml"))
        } catch {
            #expect(error.code == .contentUnknownHref)
            #expect(error.description.contains("OEBPS/missing.xhtml"))
        }
    }

    @Test func aPublicationWithoutContentServiceSaysSo() throws {
        let book = try SyntheticBook(chapterCount: 1)
        let bare = Publication(manifest: book.publication.manifest, container: book.publication.container, mediaType: .readiumAudiobook)
        #expect(throws: ContentError.self) { _ = try bare.content(from: nil) }
    }

    @Test func pageBreakMarkersAreTheirOwnSkippableElements() throws {
        let xhtml = "<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\"><body><p>Before <span epub:type=\"pagebreak\">12</span> after.</p></body></html>"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-pb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try xhtml.write(to: folder.appendingPathComponent("a.xhtml"), atomically: true, encoding: .utf8)
        let publication = EPUBContentService.attach(to: Publication(
            manifest: Manifest(metadata: Metadata(), readingOrder: [Link(href: "a.xhtml", type: "application/xhtml+xml")]),
            container: try FolderContainer(url: folder), mediaType: .epub))
        let elements = try publication.content(from: nil).elements()
        #expect(elements.map(\.role.name) == ["body", "pagebreak", "body"])
        #expect(elements.filter { !$0.role.isSkippable }.compactMap { ($0 as? TextContentElement)?.text } == ["Before", "after."])
    }
}
