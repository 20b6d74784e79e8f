// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// `opds1/feedbooks-catalog-root.atom` and `opds1/opds-spec-acquisition-facets.atom`: the corpus README's facts.
@Suite("OPDS 1 navigation and facets", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct OPDS1NavigationFeedTests {
    static let root = "opds1/feedbooks-catalog-root.atom"
    static let spec = "opds1/opds-spec-acquisition-facets.atom"

    @Test func feedbooksRootHasItsTitleIdLanguageAndDate() throws {
        let feed = try OPDSCorpus.feed(Self.root)
        #expect(feed.metadata.title == "Feedbooks")
        #expect(feed.metadata.identifier == "http://www.feedbooks.com/catalog.atom")
        #expect(feed.metadata.language == "en")
        #expect(feed.metadata.modified == "2018-01-29T21:19:33Z")
    }

    @Test func feedbooksRootHasItsEightFeedLinks() throws {
        let feed = try OPDSCorpus.feed(Self.root)
        #expect(feed.links.count == 8)
        #expect(feed.facets.isEmpty)
        #expect(feed.link(withRel: "self")?.type == "application/atom+xml; profile=opds-catalog; kind=navigation")
        #expect(feed.link(withRel: "start") != nil)
        #expect(feed.searchLink?.type == "application/opensearchdescription+xml")
        #expect(feed.searchLink?.href == "http://www.feedbooks.com/opensearch.xml")
        #expect(feed.links(withRel: "http://opds-spec.org/shelf").count == 1)
        #expect(feed.links(withRel: "http://opds-spec.org/featured").count == 2)
        #expect(feed.links(withRel: "http://opds-spec.org/sort/popular").count == 2)
        #expect(feed.links[7].title == "Livre en français")
    }

    @Test func feedbooksRootHasSixNavigationEntriesAndNoPublication() throws {
        let feed = try OPDSCorpus.feed(Self.root)
        #expect(feed.publications.isEmpty)
        #expect(feed.navigation.map(\.title) == ["Best Sellers", "New Releases", "Recommended Readings", "Fiction", "Non-Fiction", "Free Books"])
        #expect(feed.navigation[0].rels == ["http://opds-spec.org/sort/popular"])
        #expect(feed.navigation[0].type?.contains("kind=acquisition") == true)
        #expect(feed.navigation[1].rels == ["http://opds-spec.org/sort/new"])
        for link in feed.navigation[2...] {
            #expect(link.rels == ["subsection"])
            #expect(link.type?.contains("kind=navigation") == true)
        }
        for entry in try OPDSCorpus.entries(Self.root) {
            #expect(entry.links.count + entry.images.count == 1)
            #expect(entry.acquisitionLinks.isEmpty)
        }
    }

    @Test func specFeedHasItsTitleAndFourRelativeLinks() throws {
        let feed = try OPDSCorpus.feed(Self.spec)
        #expect(feed.metadata.title == "Unpopular Publications")
        #expect(feed.links.map { $0.rels[0] } == ["related", "self", "start", "up"])
        #expect(feed.links.allSatisfy { $0.href.hasPrefix("/opds-catalogs/") })
    }

    @Test func specFeedHasTwoFacetsInCategoriesTheFirstActive() throws {
        let feed = try OPDSCorpus.feed(Self.spec)
        #expect(feed.facets.count == 1)
        let facet = try #require(feed.facets.first)
        #expect(facet.metadata.title == "Categories")
        #expect(facet.links.map(\.title) == ["Science-Fiction", "Romance"])
        #expect(facet.activeLink?.href == "/sci-fi")
        #expect(facet.links[1].numberOfItems == 600)
        #expect(!facet.links[1].rels.contains("self"))
    }

    @Test func specEntryBobSonOfBobHasItsAuthorCategoryLinksAndImages() throws {
        let feed = try OPDSCorpus.feed(Self.spec)
        #expect(feed.publications.count == 2)
        let bob = feed.publications[0]
        #expect(bob.title == "Bob, Son of Bob")
        #expect(bob.names("author").count == 1)
        #expect(bob.metadata.otherMetadata["subject"]?.arrayValue?.count == 1)
        #expect(bob.acquisitionLinks.map(\.type) == ["application/epub+zip", "application/x-mobipocket-ebook"])
        #expect(bob.count(rel: "alternate") == 1)
        #expect(bob.images.count == 2)
        #expect(Set(bob.images.flatMap(\.rels)) == [OPDSRel.image, OPDSRel.thumbnail])
    }

    @Test func specEntryPhilatelyHasThreeAuthorsAnISBNAndTwoPrices() throws {
        let entry = try OPDSCorpus.feed(Self.spec).publications[1]
        #expect(entry.title == "Modern Online Philately")
        #expect(entry.names("author").count == 3)
        #expect(entry.metadata.identifier == "urn:isbn:978029536341X")
        #expect(entry.acquisitionLinks.count == 1)
        let buy = try #require(entry.acquisitionLinks.first)
        #expect(buy.acquisitionKind == "buy")
        #expect(buy.type == "application/epub+zip")
        #expect(buy.prices == [OPDSPrice(currency: "USD", value: 18.99), OPDSPrice(currency: "GBP", value: 11.99)])
    }
}
