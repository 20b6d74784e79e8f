// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// The OPDS 2 feeds of `opds2/`: the corpus README's facts.
@Suite("OPDS 2 feeds", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct OPDS2FeedTests {
    @Test func readiumDemoFeedHasFivePublicationsWithoutAcquisition() throws {
        let feed = try OPDSCorpus.feed("opds2/readium-feedbooks-publications.json")
        #expect(feed.context == ["http://opds-spec.org/opds.jsonld"])
        #expect(feed.metadata.type == "http://schema.org/DataFeed")
        #expect(feed.metadata.numberOfItems == 5)
        #expect(feed.publications.count == 5)
        for publication in feed.publications {
            #expect(publication.link(withRel: "self")?.type == "application/webpub+json")
            #expect(publication.acquisitionLinks.isEmpty)
            #expect(publication.images.count == 1)
        }
    }

    @Test func readiumDemoMobyDickHasALicenceLinkOfTheOldType() throws {
        let moby = try OPDSCorpus.feed("opds2/readium-feedbooks-publications.json").publications[3]
        #expect(moby.title == "Moby-Dick")
        #expect(moby.metadata.identifier == "urn:isbn:9780316000000")
        let license = try #require(moby.link(withRel: "license"))
        #expect(license.href == "license.lcpl")
        #expect(license.type == "application/vnd.readium.lcp.license-1.0+json")
        #expect(OPDSMediaType.isLCPLicense(license.type ?? ""))
    }

    @Test func cantookAudiobooksPageHasItsPaginationAndTemplatedSearch() throws {
        let feed = try OPDSCorpus.feed("opds2/cantook-epl-audiobooks-page1.json")
        #expect(feed.metadata.numberOfItems == 160)
        #expect(feed.metadata.itemsPerPage == 40)
        #expect(feed.metadata.currentPage == 1)
        let rels = feed.links.compactMap(\.rels.first)
        #expect(rels.count == 8)
        for rel in ["self", "next", "last", "search"] { #expect(rels.contains(rel), "\(rel)") }
        for word in ["profile", "history", "shelf", "wishlist"] {
            #expect(rels.contains { $0 == word || $0.hasSuffix("/" + word) || $0.hasSuffix("#" + word) }, "\(word)")
        }
        #expect(feed.nextLink?.href.contains("&page=2&sort_by=issued_on_desc") == true)
        #expect(feed.lastLink?.href.contains("page=4") == true)
        let search = try #require(feed.searchLink)
        #expect(search.templated)
        #expect(search.href == "https://epl.cantookstation.com/v1/resources.opds2{?query}")
        #expect(URITemplate.expand(search.href, ["query": "moon sun"]) == "https://epl.cantookstation.com/v1/resources.opds2?query=moon%20sun")
    }

    @Test func cantookAudiobooksPageHasFortyAudiobooksToBorrow() throws {
        let feed = try OPDSCorpus.feed("opds2/cantook-epl-audiobooks-page1.json")
        #expect(feed.publications.count == 40)
        #expect(feed.publications[0].title == "The Moon the Sun Forgot")
        for publication in feed.publications {
            #expect(publication.metadata.type == "http://schema.org/Audiobook")
            #expect(publication.metadata.languages == ["en"])
            #expect(publication.metadata.narrators.isEmpty && publication.metadata.duration == nil)
            #expect(publication.acquisitionLinks.count == 1)
            let borrow = publication.acquisitionLinks[0]
            #expect(borrow.acquisitionKind == "borrow")
            #expect(borrow.type == OPDSMediaType.opds2Publication)
            #expect(borrow.availability?.state == "available")
            #expect(publication.link(withRel: "self")?.authenticate?.type == OPDSMediaType.authentication)
        }
    }

    @Test func cantookAudiobooksPageHasEightFacets() throws {
        let feed = try OPDSCorpus.feed("opds2/cantook-epl-audiobooks-page1.json")
        #expect(feed.facets.map(\.links.count) == [2, 2, 1, 3, 2, 52, 2, 1])
        #expect(feed.facets.allSatisfy { $0.activeLink != nil || $0.links.allSatisfy { !$0.rels.contains("self") } })
        #expect(feed.facets.contains { $0.activeLink != nil })
        let ebooks = feed.facets.flatMap(\.links).first { $0.title == "Ebooks" }
        #expect(ebooks?.numberOfItems == 2597)
    }

    @Test func cantookHomeHasNavigationAndTwoGroupsOf18() throws {
        let feed = try OPDSCorpus.feed("opds2/cantook-epl-home-groups.json")
        #expect(feed.navigation.map(\.title) == ["Ebooks", "Magazines", "Audiobooks", "Featured selections", "Categories"])
        #expect(feed.groups.count == 2)
        #expect(feed.groups.allSatisfy { $0.links.count == 1 && $0.links[0].rels == ["self"] && $0.publications.count == 18 })
        #expect(feed.groups[0].metadata.title == "Recent releases")
        #expect(feed.groups[0].publications[0].title == "Skidded and Skunked")
        #expect(feed.groups[1].metadata.title == "Top titles")
        #expect(feed.searchLink?.href == "https://epl.cantookstation.com/v1/resources.opds2{?query}")
    }

    @Test func cantookHomeHas36DistinctPublicationsToBorrowWithSamples() throws {
        let publications = try OPDSCorpus.feed("opds2/cantook-epl-home-groups.json").allPublications
        #expect(publications.count == 36)
        #expect(publications.filter { $0.metadata.type == "http://schema.org/Book" }.count == 34)
        #expect(publications.filter { $0.metadata.type == "http://schema.org/PublicationIssue" }.count == 2)
        let borrows = publications.flatMap(\.acquisitionLinks).filter { $0.acquisitionKind == "borrow" }
        #expect(borrows.count == 36)
        #expect(borrows.allSatisfy { $0.availability?.state == "available" })
        let samples = publications.flatMap(\.links).filter { $0.rels.contains(OPDSRel.sample) || $0.rels.contains(OPDSRel.preview) }
        #expect(samples.filter { $0.type == OPDSMediaType.epub }.count == 27)
        #expect(samples.filter { $0.type == "application/pdf" }.count == 4)
    }

    @Test func fulcrumIsOnePageOf42OpenAccessEBooks() throws {
        let feed = try OPDSCorpus.feed("opds2/fulcrum-leverpress.json")
        #expect(feed.metadata.numberOfItems == 42)
        #expect(feed.metadata.itemsPerPage == 50)
        #expect(feed.metadata.currentPage == 1)
        let own = try #require(feed.link(withRel: "self")?.href)
        #expect(feed.firstLink?.href == own && feed.lastLink?.href == own)
        #expect(feed.nextLink == nil)
        #expect(feed.publications.count == 42)
        #expect(feed.publications[0].title.hasPrefix("Knowing an Empire: "))
        #expect(feed.publications.allSatisfy { $0.metadata.type == "http://schema.org/EBook" && $0.images.count == 4 && !$0.metadata.authors.isEmpty })
        let openAccess = feed.publications.flatMap(\.acquisitionLinks).filter { $0.acquisitionKind == "open-access" }
        #expect(openAccess.filter { $0.type == OPDSMediaType.epub }.count == 41)
        #expect(openAccess.filter { $0.type == "application/pdf" }.count == 38)
        let queer = try #require(feed.publications.first { $0.title == "Queer Compassion in 15 Comics" })
        #expect(!queer.acquisitionLinks.contains { $0.type == OPDSMediaType.epub })
        let selfTypes = feed.publications.compactMap { $0.link(withRel: "self")?.type }
        #expect(selfTypes.filter { $0 == OPDSMediaType.epub }.count == 41 && selfTypes.filter { $0 == "application/pdf" }.count == 1)
        let authors = try OPDSCorpus.json("opds2/fulcrum-leverpress.json")["publications"]?.arrayValue?.compactMap { $0.objectValue?["metadata"]?.objectValue?["author"] } ?? []
        #expect(authors.filter { $0.stringValue != nil }.count == 25 && authors.filter { $0.arrayValue != nil }.count == 17)
    }

    @Test func aldikoDirectoryHas15Catalogs() throws {
        let feed = try OPDSCorpus.feed("opds2/aldiko-france-catalogs.json")
        #expect(feed.catalogs.count == 15)
        let catalogLinks = feed.catalogs.map { $0.links.filter { $0.rels.contains(OPDSRel.catalog) } }
        #expect(catalogLinks.allSatisfy { $0.count == 1 })
        #expect(catalogLinks.filter { $0[0].type == OPDSMediaType.opds2Feed }.count == 7)
        #expect(catalogLinks.filter { $0[0].type == "text/html" }.count == 8)
        #expect(feed.catalogs.filter { $0.links.contains { $0.rels.isEmpty && $0.type == OPDSMediaType.authentication } }.count == 7)
        #expect(feed.catalogs.filter { $0.links.contains { $0.rels == ["alternate"] && $0.type == "text/html" } }.count == 7)
        #expect(feed.catalogs.filter { !$0.images.isEmpty }.count >= 6)
        let countries = feed.catalogs.compactMap { $0.metadata.otherMetadata["country"]?.stringValue }
        #expect(countries.filter { $0 == "FRA" }.count == 14 && countries.filter { $0 == "FR" }.count == 1)
    }

    @Test func palaceExampleFeedHasItsThreePublications() throws {
        let feed = try OPDSCorpus.feed("opds2/palace-example-feed.json")
        #expect(feed.publications.count == 3)
        let moby = feed.publications[0]
        #expect(moby.title == "Moby-Dick")
        #expect(moby.metadata.type == "http://schema.org/Audiobook")
        #expect(moby.metadata.duration == 100.2)
        #expect(moby.acquisitionLinks.map(\.acquisitionKind) == ["open-access"])
        #expect(moby.acquisitionLinks[0].type == OPDSMediaType.readiumAudiobook)
        let huck = feed.publications[1]
        #expect(huck.title == "Adventures of Huckleberry Finn")
        let borrow = try #require(huck.acquisitionLinks.first { $0.acquisitionKind == "borrow" })
        #expect(borrow.type == OPDSMediaType.opds2Publication)
        #expect(borrow.availability?.state == "available")
        #expect(borrow.indirectAcquisitions.flatMap(\.chains) == [["application/vnd.adobe.adept+xml", OPDSMediaType.epub], [OPDSMediaType.lcpLicense, OPDSMediaType.epub]])
        #expect(huck.links.contains { ($0.rels.contains(OPDSRel.sample) || $0.rels.contains(OPDSRel.preview)) && $0.type == OPDSMediaType.epub })
        let politics = feed.publications[2]
        #expect(politics.title == "The Politics of Postmodernism")
        let templated = politics.acquisitionLinks.filter { $0.templated && $0.href.hasSuffix("{&authentication_token}") }
        #expect(templated.count == 2)
        #expect(templated.allSatisfy { $0.type == "application/vnd.adobe.adept+xml" })
        #expect(Set(templated.flatMap(\.acquisitionMediaTypes)) == [OPDSMediaType.epub, "application/pdf"])
    }

    /// A Readium manifest (`manifest.json#anchor` given to raudio play) is not taken for a publication of a feed.
    @Test func aReadiumManifestIsNotAFeed() throws {
        let manifest = #"{"metadata": {"title": "Book"}, "links": [{"rel": "self", "href": "manifest.json"}], "readingOrder": [{"href": "a.mp3"}]}"#
        let error = try #require(throws: OPDSError.self) { try OPDSParser.parseFeed(data: Data(manifest.utf8), url: "manifest.json") }
        #expect(error.code == .catalogNotAFeed)
    }

    @Test func palaceBadFeedKeepsWhatCanBeHadWithWarnings() throws {
        let feed = try OPDSCorpus.feed("opds2/palace-bad-feed.json")
        // Publication 0 has no title, publication 2 no links: both left out, each with a warning.
        #expect(feed.publications.count == 1)
        #expect(feed.warnings.contains { $0.message.contains("without a title") })
        #expect(feed.warnings.contains { $0.message.contains("has no links") })
        let publication = feed.publications[0]
        #expect(publication.metadata.authors.count >= 1)
        #expect(feed.warnings.contains { $0.path.contains("author") })
    }
}
