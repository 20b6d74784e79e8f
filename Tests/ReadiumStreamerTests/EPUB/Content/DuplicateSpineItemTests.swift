// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// A spine that repeats a document (W3C pkg-spine-duplicate-item-*): each occurrence is read in turn, at its
/// own place in the publication, and a locator (a bookmark, a resumed place) comes back to its own occurrence;
/// a link to the document goes to the first.
@Suite(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
struct DuplicateSpineItemTests {
    static func book(_ name: String) throws -> Publication {
        try TestEPUBOpener.open(Corpus.file("epub/w3c-epub-tests/\(name).epub"))
    }

    static func texts(_ elements: [any ContentElement]) -> [(text: String, locator: Locator)] {
        elements.compactMap { $0 as? TextContentElement }.map { ($0.segments.map(\.text).joined(), $0.locator) }
    }

    @Test func everyOccurrenceIsReadAtItsOwnPlace() throws {
        let elements = Self.texts(try Self.book("pkg-spine-duplicate-item-rendering").content(from: nil).elements())
        let repeated = elements.filter { $0.text.contains("occurs three times") }
        #expect(repeated.count == 3, "\(elements.map(\.text))")
        let places = repeated.compactMap(\.locator.locations.totalProgression)
        #expect(places.count == 3 && places == places.sorted() && Set(places).count == 3, "\(places)")
    }

    @Test func aLocatorComesBackToItsOwnOccurrence() throws {
        let publication = try Self.book("pkg-spine-duplicate-item-rendering")
        let repeated = Self.texts(try publication.content(from: nil).elements()).filter { $0.text.contains("occurs three times") }
        try #require(repeated.count == 3)
        for (occurrence, heard) in repeated.enumerated() {
            // From the place heard, what follows: the occurrences after it, not those before.
            let following = Self.texts(try publication.content(from: heard.locator).elements()).filter { $0.text.contains("occurs three times") }
            #expect(following.count == 3 - occurrence, "occurrence \(occurrence + 1)")
            #expect(following.first?.locator.locations.totalProgression == heard.locator.locations.totalProgression)
        }
    }

    /// pkg-spine-duplicate-item-hyperlink: "move to the position of the first duplicate when following a hyperlink".
    @Test func aLinkGoesToTheFirstOccurrence() throws {
        let publication = try Self.book("pkg-spine-duplicate-item-hyperlink")
        let link = Locator(href: "EPUB/content_002.xhtml", type: "application/xhtml+xml")
        let following = Self.texts(try publication.content(from: link).elements()).filter { $0.text.contains("occurs three times") }
        #expect(following.count == 3)
    }
}
