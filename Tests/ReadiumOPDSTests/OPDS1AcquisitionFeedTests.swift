// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// Feedbooks' test catalog page and the library feeds of `opds1/`: the corpus README's facts.
@Suite("OPDS 1 acquisition feeds", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct OPDS1AcquisitionFeedTests {
    static let feedbooks = "opds1/feedbooks-test-catalog-acquisition.xml"
    static let nypl = "opds1/nypl-historical-fiction-page1.xml"

    @Test func feedbooksTestPageHasItsTitleIdAndLinksIncludingNext() throws {
        let feed = try OPDSCorpus.feed(Self.feedbooks)
        #expect(try !String(decoding: OPDSCorpus.data(Self.feedbooks), as: UTF8.self).hasPrefix("<?xml"))
        #expect(feed.metadata.title == "First Acquisition Feed")
        #expect(feed.metadata.identifier == "main.xml")
        #expect(feed.link(withRel: "self")?.href == "main.xml")
        #expect(feed.link(withRel: "start")?.href == "../root.xml")
        #expect(feed.searchLink?.href == "../opensearch.xml")
        #expect(feed.searchLink?.type == OPDSMediaType.openSearch)
        #expect(feed.nextLink?.href == "page2.xml")
    }

    @Test func feedbooksTestPageSaysEighteenResultsButHasSeventeenEntries() throws {
        let feed = try OPDSCorpus.feed(Self.feedbooks)
        #expect(feed.metadata.numberOfItems == 18)
        #expect(try OPDSCorpus.entries(Self.feedbooks).count == 17)
        #expect(feed.publications.count + feed.navigation.count == 17)
    }

    @Test func feedbooksTestPageHasTwentyAcquisitionLinksOfEachKind() throws {
        let links = try OPDSCorpus.entries(Self.feedbooks).flatMap(\.acquisitionLinks)
        #expect(links.count == 20)
        let kinds = Dictionary(grouping: links, by: { $0.acquisitionKind ?? "" }).mapValues(\.count)
        #expect(kinds == ["acquisition": 8, "borrow": 4, "buy": 3, "sample": 3, "open-access": 1, "subscribe": 1])
        let indirect = links.filter { $0.indirectAcquisitions.contains { $0.type == OPDSMediaType.epub } }
        #expect(indirect.count == 10)
        #expect(indirect.filter { $0.type == "text/html" }.count == 9)
        let prices = links.flatMap(\.prices)
        #expect(prices.filter { $0 == OPDSPrice(currency: "USD", value: 10.99) }.count == 3)
        #expect(links.first { $0.acquisitionKind == "subscribe" }?.prices == [OPDSPrice(currency: "EUR", value: 4.99)])
    }

    @Test func feedbooksTestPageEntriesCarryTheirCases() throws {
        let entries = try OPDSCorpus.entries(Self.feedbooks)
        for index in [12, 13] {
            #expect(entries[index].acquisitionLinks.contains { $0.availability == OPDSAvailability(state: "unavailable", until: "2016-10-12") })
        }
        #expect(entries[12].title == "Acquisition: Place a hold")
        #expect(entries[13].title == "Acquisition: Pre-order")
        #expect(entries[14].title == "Acquisition: Multiple links")
        #expect(Set(entries[14].acquisitionLinks.compactMap(\.acquisitionKind)) == ["buy", "borrow", "sample"])
        #expect(entries[16].title == "Acquisition: Indirect bad")
        #expect(entries[16].acquisitionLinks.contains { $0.type == "text/imaginarytype" })
        #expect(entries[4].title == "Metadata: Contributor")
        #expect(entries[4].names("author").isEmpty)
        #expect(entries[4].names("contributor").count == 1)
        let subjects = try #require(entries[5].metadata.otherMetadata["subject"]?.arrayValue)
        #expect(!subjects.isEmpty)
        for subject in subjects { #expect(subject.objectValue?["name"] == subject.objectValue?["code"]) }
    }

    @Test func overdriveEntryDocumentHasItsBorrowLinkWithFourChains() throws {
        let feed = try OPDSCorpus.feed("opds1/overdrive-borrow-entry.xml")
        let entry = try #require(feed.publications.first)
        #expect(feed.publications.count == 1)
        #expect(entry.title == "The Frances Hodgson Burnett Megapack")
        #expect(entry.metadata.type == "http://schema.org/Book")
        #expect(entry.metadata.otherMetadata["subject"]?.arrayValue?.count == 4)
        #expect(entry.acquisitionLinks.count == 1)
        let borrow = try #require(entry.acquisitionLinks.first)
        #expect(borrow.acquisitionKind == "borrow")
        #expect(borrow.type == "application/atom+xml;type=entry;profile=opds-catalog")
        #expect(borrow.indirectAcquisitions.flatMap(\.chains) == [
            ["application/epub+zip"], ["application/pdf"], ["vnd.adobe/adept+xml", "application/epub+zip"], ["vnd.adobe/adept+xml", "application/pdf"],
        ])
        #expect(borrow.availability?.state == "available")
        #expect(borrow.holds == OPDSHolds(total: 0))
        #expect(borrow.copies == OPDSCopies(total: 1, available: 1))
    }

    @Test func nyplPageHasRelativeIdAndTwelveLinksAfterTheEntries() throws {
        let feed = try OPDSCorpus.feed(Self.nypl)
        #expect(feed.metadata.identifier == "/NYNYPL/feed/13")
        #expect(feed.link(withRel: "self")?.href == "/NYNYPL/feed/13")
        #expect(feed.links.count + feed.facets.flatMap(\.links).count == 21)
        #expect(feed.links.count == 12)
        let next = try #require(feed.nextLink)
        #expect(next.href.hasPrefix("http"))
        #expect(next.href.contains("size=50"))
        #expect(next.href.contains("key="))
        #expect(feed.link(withRel: "up")?.title == "Fiction")
        #expect(feed.link(withRel: "start") != nil)
        #expect(feed.authenticationLink != nil)
        #expect(feed.searchLink?.type == OPDSMediaType.openSearch)
        #expect(feed.link(withRel: "help")?.href.hasPrefix("mailto:") == true)
        for rel in ["http://opds-spec.org/shelf", "terms-of-service", "privacy-policy", "about"] {
            #expect(feed.link(withRel: rel) != nil, "\(rel)")
        }
    }

    @Test func nyplPageHasNineFacetsInThreeGroups() throws {
        let feed = try OPDSCorpus.feed(Self.nypl)
        #expect(feed.facets.map(\.metadata.title) == ["Sort by", "Availability", "Collection"])
        #expect(feed.facets.map { $0.links.compactMap(\.title) } == [
            ["Title", "Author", "Recently Added", "Random"], ["Available now", "All", "Yours to keep"], ["Everything", "Popular Books"],
        ])
        #expect(feed.facets.map { $0.activeLink?.title } == ["Title", "Available now", "Everything"])
    }

    @Test func nyplPageHasFiftyEBooksWithTheirBorrowLinks() throws {
        let feed = try OPDSCorpus.feed(Self.nypl)
        #expect(feed.publications.count == 50)
        #expect(feed.publications.allSatisfy { $0.metadata.type == "http://schema.org/EBook" })
        let links = feed.publications.flatMap(\.acquisitionLinks)
        #expect(links.filter { $0.acquisitionKind == "borrow" }.count == 50)
        #expect(links.filter { $0.acquisitionKind == "open-access" }.count == 1)
        #expect(feed.publications[9].title == "1492")
        #expect(Set(feed.publications[9].acquisitionLinks.compactMap(\.acquisitionKind)) == ["borrow", "open-access"])
        #expect(links.filter { $0.copies != nil }.count == 49)
        let streaming = ["application/atom+xml;type=entry;profile=opds-catalog", "text/html;profile=\"http://librarysimplified.org/terms/profiles/streaming-media\""]
        #expect(links.filter { $0.acquisitionKind == "borrow" && $0.indirectAcquisitions.flatMap(\.chains).contains(streaming) }.count == 38)
    }

    @Test func nyplEntry27HasItsHoldsCopiesAndChains() throws {
        let entry = try OPDSCorpus.feed(Self.nypl).publications[27]
        #expect(entry.title == "The 7 ½ Deaths of Evelyn Hardcastle")
        let borrow = try #require(entry.acquisitionLinks.first { $0.acquisitionKind == "borrow" })
        #expect(borrow.holds?.total == 2)
        #expect(borrow.copies == OPDSCopies(total: 77, available: 28))
        let chains = borrow.indirectAcquisitions.flatMap(\.chains)
        #expect(chains.contains(["application/vnd.adobe.adept+xml", "application/epub+zip"]))
        #expect(chains.contains(["application/vnd.adobe.adept+xml", "application/pdf"]))
        #expect(chains.contains { $0.first == "application/atom+xml;type=entry;profile=opds-catalog" && $0.last?.contains("streaming-media") == true })
    }

    /// Atom text is shown as people read it: runs of spaces collapse (a deliberate choice).
    @Test func nyplEntry0TitleRunsOfSpacesCollapse() throws {
        #expect(try String(decoding: OPDSCorpus.data(Self.nypl), as: UTF8.self).contains("A   Woman of Virtue"))
        #expect(try OPDSCorpus.feed(Self.nypl).publications[0].title == "A Woman of Virtue")
    }
}
