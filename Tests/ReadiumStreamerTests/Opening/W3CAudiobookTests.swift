// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// W3C Audiobooks (`publication.json`, alone or in an `.lpf`) open and map to the Readium model.
@Suite struct W3CAudiobookTests {
    /// The shape of the W3C Audiobooks specification's examples, with every kind of value it allows.
    static let manifest = """
        {
          "@context": ["https://schema.org", "https://www.w3.org/ns/pub-context"],
          "conformsTo": "https://www.w3.org/TR/audiobooks/",
          "type": "Audiobook",
          "id": "urn:isbn:9780000000001",
          "url": "https://example.org/flatland",
          "name": [{"value": "Flatland: A Romance of Many Dimensions", "language": "en"}],
          "author": [{"type": "Person", "name": "Edwin Abbott Abbott"}, "A. Square"],
          "readBy": {"type": "Person", "name": "Ruth Golding"},
          "publisher": "LibriVox",
          "inLanguage": "en",
          "datePublished": "2008-10-05",
          "dateModified": "2019-01-01T10:00:00Z",
          "duration": "PT2H12M30.5S",
          "readingOrder": [
            {"type": "LinkedResource", "url": "audio/part1.mp3", "encodingFormat": "audio/mpeg", "name": "Part 1, Sections 1 - 3", "duration": "PT1H5M"},
            {"type": "LinkedResource", "url": "audio/part 2.mp3", "name": "Part 1, Sections 4 - 5", "duration": "PT1H7M30.5S"},
            "audio/part3.opus"
          ],
          "resources": [
            {"type": "LinkedResource", "rel": "cover", "url": "images/cover.jpg", "encodingFormat": "image/jpeg"},
            {"type": "LinkedResource", "rel": "contents", "url": "toc.html"}
          ]
        }
        """

    func check(_ publication: Publication) throws {
        let manifest = publication.manifest
        #expect(manifest.metadata.title?.string == "Flatland: A Romance of Many Dimensions")
        #expect(manifest.metadata.authors.map(\.name.string) == ["Edwin Abbott Abbott", "A. Square"])
        #expect(manifest.metadata.narrators.map(\.name.string) == ["Ruth Golding"])
        #expect(manifest.metadata.publishers.map(\.name.string) == ["LibriVox"])
        #expect(manifest.metadata.languages == ["en"])
        #expect(manifest.metadata.published == "2008-10-05")
        #expect(manifest.metadata.identifier == "urn:isbn:9780000000001")
        #expect(manifest.metadata.duration == 7950.5)
        #expect(manifest.conformsToAudiobook)
        #expect(manifest.readingOrder.map(\.href) == ["audio/part1.mp3", "audio/part%202.mp3", "audio/part3.opus"])
        #expect(manifest.readingOrder.map(\.type) == ["audio/mpeg", "audio/mpeg", "audio/opus"])
        #expect(manifest.readingOrder.map(\.duration) == [3900, 4050.5, nil])
        #expect(manifest.tableOfContents.map(\.title) == ["Part 1, Sections 1 - 3", "Part 1, Sections 4 - 5", "part3"])
        #expect(manifest.resources.first { $0.rels.contains("cover") }?.href == "images/cover.jpg")
        if ReadiumValidator.isAvailable { try ReadiumValidator.validate(.publication, manifest.json.serialized()) }
    }

    @Test func aPublicationJSONInAFolderOpens() throws {
        let folder = try TemporaryFolder()
        try folder.write("book/publication.json", Data(Self.manifest.utf8))
        let publication = try PublicationOpener().open(url: folder.url.appendingPathComponent("book/publication.json"))
        #expect(publication.mediaType == .w3cWPUBManifest)
        try check(publication)
    }

    @Test func anLPFPackageOpens() throws {
        let folder = try TemporaryFolder()
        try folder.write("book/publication.json", Data(Self.manifest.utf8))
        try folder.write("book/audio/part1.mp3", Data())
        let lpf = folder.url.appendingPathComponent("flatland.lpf")
        try folder.zip(folder: "book", to: lpf)
        let publication = try PublicationOpener().open(url: lpf)
        #expect(publication.mediaType == .lpf)
        try check(publication)
        #expect(publication.container.entries.contains("audio/part1.mp3"))
    }

    @Test func aReadiumManifestIsNotTakenForAW3COne() throws {
        #expect(!W3CAudiobookParser.isW3CManifest(try #require(try JSONParser.parse(#"{"@context": "https://readium.org/webpub-manifest/context.jsonld", "metadata": {"title": "T"}, "readingOrder": []}"#).objectValue)))
        #expect(W3CAudiobookParser.isW3CManifest(try #require(try JSONParser.parse(#"{"@context": ["https://schema.org", "https://www.w3.org/ns/wp-context"], "readingOrder": ["a.mp3"]}"#).objectValue)))
    }

    @Test func isoDurationsAndMistakes() throws {
        #expect(W3CAudiobookParser.iso8601Seconds("PT1H2M3.5S") == 3723.5)
        #expect(W3CAudiobookParser.iso8601Seconds("P1DT1S") == 86401)
        #expect(W3CAudiobookParser.iso8601Seconds("PT0,5S") == 0.5)
        #expect(W3CAudiobookParser.iso8601Seconds("P1M") == nil, "months have no fixed length")
        #expect(W3CAudiobookParser.iso8601Seconds("1H") == nil)
        #expect(W3CAudiobookParser.iso8601Seconds("PT") == nil)
        let folder = try TemporaryFolder()
        try folder.write("publication.json", Data(#"{"@context": "https://www.w3.org/ns/pub-context", "readingOrder": [{"url": "a.mp3", "duration": "soon"}, {"name": "no url"}]}"#.utf8))
        let publication = try PublicationOpener().open(url: folder.url.appendingPathComponent("publication.json"))
        #expect(publication.manifest.readingOrder.map(\.href) == ["a.mp3"])
        #expect(publication.warnings.contains { $0.message.contains("not an ISO 8601 duration") && $0.path.contains("readingOrder[0]") })
        #expect(publication.warnings.contains { $0.message.contains("no url") })
    }

    @Test func anEmptyReadingOrderIsRefusedNamingTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("publication.json", Data(#"{"@context": "https://www.w3.org/ns/pub-context", "name": "Nothing", "readingOrder": []}"#.utf8))
        let url = folder.url.appendingPathComponent("publication.json")
        let error = #expect(throws: OpeningError.self) { try PublicationOpener().open(url: url) }
        #expect(error?.description.contains(url.path) == true)
        #expect(error?.description.contains("readingOrder is missing or empty") == true)
    }
}
