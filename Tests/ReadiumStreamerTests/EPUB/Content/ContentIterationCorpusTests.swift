// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

@Suite struct ContentIterationCorpusTests {
    static let books = [
        "epub/idpf-epub3-samples/wasteland.epub", "epub/idpf-epub3-samples/childrens-literature.epub",
        "epub/daisy/epub30-test-0370-advanced-read-aloud.epub", "epub/idpf-epub3-samples/sous-le-vent.epub",
        "epub/readium-test-files/SmokeTest-EPUB2.epub",
    ]

    func allElements(_ publication: Publication) throws -> [any ContentElement] {
        try publication.content(from: nil).elements()
    }

    func languages(_ elements: [any ContentElement]) -> Set<String> {
        Set(elements.compactMap { $0 as? TextContentElement }.flatMap(\.segments).compactMap { $0.language?.code })
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func wastelandSegmentsCarryEachQuotedLanguage() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/idpf-epub3-samples/wasteland.epub"))
        let elements = try allElements(publication)
        #expect(elements.count > 100)
        let found = languages(elements)
        for code in ["en", "de", "fr", "it", "la", "grc", "sa"] { #expect(found.contains(code), "no segment in \(code): \(found)") }
        let german = elements.compactMap { $0 as? TextContentElement }.flatMap(\.segments).first { $0.language?.code == "de" }
        #expect(german?.text.contains("Bin gar keine Russin") == true)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func advancedReadAloudSwitchesLanguageInsideAParagraph() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/daisy/epub30-test-0370-advanced-read-aloud.epub"))
        let elements = try allElements(publication).compactMap { $0 as? TextContentElement }
        let found = languages(elements)
        for code in ["en", "de", "fr", "it"] { #expect(found.contains(code), "no segment in \(code): \(found)") }
        #expect(elements.contains { element in Set(element.segments.compactMap(\.language?.code)).count >= 2 })
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func childrensLiteratureHasAFrenchSegment() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub"))
        let segments = try allElements(publication).compactMap { $0 as? TextContentElement }.flatMap(\.segments)
        let french = segments.filter { $0.language?.baseCode == "fr" }
        #expect(!french.isEmpty)
        #expect(segments.filter { $0.language?.baseCode == "en" }.count > french.count)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: books)
    func everySelectorFindsItsElementAgain(book: String) throws {
        let publication = try TestEPUBOpener.open(Corpus.file(book))
        var documents: [String: XMLDocument] = [:]
        var checked = 0
        for element in try allElements(publication) {
            let locator = element.locator
            guard let selector = locator.locations.cssSelector else { continue }
            if documents[locator.href] == nil {
                documents[locator.href] = try XMLDocument(data: publication.resource(at: locator.href).read(), href: locator.href, mode: .recovering)
            }
            let found = try #require(CSSSelectorResolver.resolve(selector, in: documents[locator.href]!), "\(locator.href) \(selector)")
            if let text = element as? TextContentElement {
                #expect(ContentStartResolver.normalized(found.textContent).contains(ContentStartResolver.normalized(String(text.segments[0].text.prefix(15)))), "\(locator.href) \(selector) does not hold '\(text.text.prefix(30))'")
            } else if element is ImageContentElement {
                #expect(found.localName == "img" || found.localName == "image")
            }
            checked += 1
        }
        #expect(checked > 3)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: books)
    func previousFromTheEndYieldsTheForwardElementsReversed(book: String) throws {
        let publication = try TestEPUBOpener.open(Corpus.file(book))
        let iterator = try publication.content(from: nil).iterator()
        var forward: [any ContentElement] = []
        while let element = try iterator.next() { forward.append(element) }
        var backward: [any ContentElement] = []
        while let element = try iterator.previous() { backward.append(element) }
        #expect(forward.count == backward.count)
        #expect(!forward.isEmpty)
        for (a, b) in zip(forward, backward.reversed()) { #expect(a.isSame(as: b)) }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: books)
    func resumingFromAnElementLocatorGivesThatElement(book: String) throws {
        let publication = try TestEPUBOpener.open(Corpus.file(book))
        let elements = try allElements(publication)
        let stride = max(elements.count / 25, 1)
        for index in Swift.stride(from: 0, to: elements.count, by: stride) {
            let element = elements[index]
            let resumed = try #require(try publication.content(from: element.locator).iterator().next())
            #expect(resumed.isSame(as: element), "resuming at \(element.locator.href) \(element.locator.locations.cssSelector ?? "")")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func progressionsGrowThroughThePublication() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub"))
        let totals = try allElements(publication).compactMap(\.locator.locations.totalProgression)
        #expect(totals.count > 10)
        #expect(zip(totals, totals.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(totals.allSatisfy { (0...1).contains($0) })
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func unclosedElementIsRecoveredWithAWarningNamingTheHref() throws {
        let publication = try TestEPUBOpener.open(Corpus.file("epub/w3c-epub-tests/pub-xml-non-validating_unclosed.epub"))
        let texts = try allElements(publication).compactMap { ($0 as? TextContentElement)?.text }
        #expect(texts.contains("Test passes if the reading system reports an error on this page."))
        let service = try #require(publication.extensions[ContentServiceKey.key] as? EPUBContentService)
        #expect(service.warnings.warnings.contains { $0.source.hasSuffix("content_001.xhtml") })
    }
}
