// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumOPDS
import ReadiumShared
import Testing

@testable import RAudioCLI

/// What `raudio catalog` says of the corpus feeds' entries, and which link `play`/`speak` would take.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct CatalogListingTests {
    private func feed(_ path: String) throws -> Feed {
        try OPDSParser.parseFeed(data: Data(contentsOf: Corpus.file("opds/\(path)")), url: "https://h.example/\(path)").resolved(against: "https://h.example/\(path)")
    }

    /// A loan document's type says nothing of the book: the publication's `@type` is shown instead.
    @Test func aBorrowedBookIsShownByItsTypeNotItsLoanDocument() throws {
        let home = try feed("opds2/cantook-epl-home-groups.json")
        let formats = home.allPublications.map(CatalogListing.format)
        #expect(!formats.contains(OPDSMediaType.opds2Publication))
        #expect(formats.allSatisfy { ["epub", "pdf", "book", "publicationissue"].contains($0) }, "\(formats)")
        #expect(try feed("opds1/dpla-exchange-audiobooks.xml").allPublications.map(CatalogListing.format) == ["audiobook", "audiobook"])
    }

    /// Open access first (an audiobook for play, an EPUB for speak), an LCP licence next, a loan to follow last; a
    /// purchase or an ADEPT-only chain never.
    @Test func theBestLinkOfCorpusEntries() throws {
        let palace = try feed("opds2/palace-example-feed.json").publications
        #expect(CatalogEntryChoice.best(for: palace[0], prefersText: false)?.word == "open")
        #expect(CatalogEntryChoice.best(for: palace[1], prefersText: false)?.word == "follow")
        #expect(CatalogEntryChoice.best(for: palace[2], prefersText: false) == nil)
        let fulcrum = try feed("opds2/fulcrum-leverpress.json").publications[0]
        #expect(CatalogEntryChoice.best(for: fulcrum, prefersText: true)?.link.type == OPDSMediaType.epub)
        let philately = try feed("opds1/opds-spec-acquisition-facets.atom").publications[1]
        #expect(CatalogEntryChoice.best(for: philately, prefersText: true) == nil)
        #expect(CatalogEntryChoice.refusal(for: philately).contains("buy USD 18.99, GBP 11.99"))
        let held = try feed("opds1/entry-held-timed-queued.xml").publications[0]
        #expect(CatalogEntryChoice.best(for: held, prefersText: false) == nil)
        let moby = try feed("opds2/readium-feedbooks-publications.json").publications[3]
        #expect(CatalogEntryChoice.best(for: moby, prefersText: false) == nil)
    }

    @Test func entriesAreFoundByIdPositionOrTitle() throws {
        let search = try feed("opds1/simplye-classics-search-corner.xml")
        let fourth = search.publications[3]
        let fragment = CatalogEntryReference.fragment(for: fourth, index: 3)
        #expect(CatalogEntryReference.find(fragment, in: search) == fourth)
        #expect(CatalogEntryReference.find("4", in: search) == fourth)
        #expect(CatalogEntryReference.find("¡adiós, cordera!", in: search) == fourth)
        #expect(CatalogEntryReference.find("nothing", in: search) == nil)
    }
}
