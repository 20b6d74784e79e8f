// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// Palace, SimplyE, DPLA, LibriVox feeds and the circulation entries of `opds1/`: the corpus README's facts.
@Suite("OPDS 1 library feeds", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct OPDS1LibraryFeedTests {
    static let palace = "opds1/palace-minotaur-audiobooks-groups.xml"

    @Test func palaceGroupsFeedRepeatsEntriesAcrossGroups() throws {
        let feed = try OPDSCorpus.feed(Self.palace)
        #expect(feed.metadata.title == "Minotaur Test Library")
        let entries = try OPDSCorpus.entries(Self.palace)
        #expect(entries.count == 123)
        #expect(Set(entries.compactMap(\.entryID)).count == 76)
        #expect(feed.groups.flatMap(\.publications).count == 123)
        #expect(feed.allPublications.count == 76)
        #expect(entries.filter { $0.entryID == "urn:isbn:9781488208676" }.count == 3)
        #expect(entries.first { $0.entryID == "urn:isbn:9781488208676" }?.title == "The Black Swan of Paris")
        #expect(feed.links.count == 10 - 3)
        #expect(feed.nextLink == nil)
    }

    @Test func palaceGroupsAreTheCollectionLinksInOrder() throws {
        let feed = try OPDSCorpus.feed(Self.palace)
        let groups = feed.groups.map { "\($0.metadata.title) \($0.publications.count)" }
        #expect(groups == [
            "Palace Marketplace 15", "Palace Titles 15", "Axis 360 15", "Bibliotheca 12", "BiblioBoard 15", "Fiction 15",
            "Nonfiction 15", "Young Adult Fiction 6", "Children and Middle Grade 15",
        ])
        #expect(feed.groups.allSatisfy { $0.links.count == 1 && $0.links[0].rels == ["self"] })
        #expect(feed.publications.isEmpty)
    }

    @Test func palaceFormatsFacetHasAudiobooksActive() throws {
        let feed = try OPDSCorpus.feed(Self.palace)
        #expect(feed.facets.map(\.metadata.title) == ["Formats"])
        #expect(feed.facets[0].links.map(\.title) == ["All", "eBooks", "Audiobooks"])
        #expect(feed.facets[0].activeLink?.title == "Audiobooks")
    }

    @Test func palaceEntriesAreAudiobooksWithTheirChains() throws {
        let entries = try OPDSCorpus.entries(Self.palace)
        #expect(entries.allSatisfy { $0.metadata.type == "http://bib.schema.org/Audiobook" && $0.isAudiobook })
        #expect(entries.allSatisfy { $0.acquisitionLinks.count == 1 && $0.acquisitionLinks[0].acquisitionKind == "borrow" })
        let chains = entries.map { $0.acquisitionLinks[0].indirectAcquisitions.flatMap(\.chains) }
        let findaway = chains.filter { $0 == [["application/vnd.librarysimplified.findaway.license+json"]] }
        #expect(findaway.count == 59)
        let lcp = [OPDSMediaType.lcpLicense, "application/audiobook+lcp"]
        let restricted = "application/audiobook+json;profile=\"http://www.feedbooks.com/audiobooks/access-restriction\""
        #expect(chains.filter { $0.count == 2 && $0.contains([restricted]) && $0.contains(lcp) }.count == 27)
        #expect(chains.filter { $0 == [lcp] }.count == 19)
        let bearer = ["application/vnd.librarysimplified.bearer-token+json", "application/audiobook+json"]
        let bearerEntries = entries.filter { $0.acquisitionLinks[0].indirectAcquisitions.flatMap(\.chains) == [bearer] }
        #expect(bearerEntries.count == 18)
        #expect(bearerEntries.allSatisfy { $0.acquisitionLinks[0].holds == nil && $0.acquisitionLinks[0].copies == nil })
    }

    @Test func palaceEntriesName173NarratorsTheFirstByKarenRobards() throws {
        let entries = try OPDSCorpus.entries(Self.palace)
        #expect(entries.map { $0.names("narrator").count }.reduce(0, +) == 173)
        #expect(entries[0].names("author") == ["Karen Robards"])
        #expect(entries[0].names("narrator") == ["Nancy Peterson"])
    }

    @Test func simplyESearchPageHasItsLinksAndTenOpenAccessEntries() throws {
        let feed = try OPDSCorpus.feed("opds1/simplye-classics-search-corner.xml")
        #expect(feed.metadata.title == "Search")
        #expect(feed.links.map { $0.rels[0] } == ["self", "start", "next", "up", OPDSRel.authenticationDocument, "search", "license", "help"])
        #expect(feed.nextLink?.href.contains("q=corner&after=10&entrypoint=Book&size=10") == true)
        #expect(feed.metadata.numberOfItems == nil)
        #expect(feed.publications.count == 10)
        let links = feed.publications.map { $0.acquisitionLinks }
        #expect(links.allSatisfy { $0.count == 1 && $0[0].acquisitionKind == "open-access" })
        let direct = feed.publications.indices.filter { links[$0][0].type == OPDSMediaType.epub && links[$0][0].indirectAcquisitions.isEmpty }
        #expect(direct.count == 8)
        for index in [4, 8] {
            #expect(links[index][0].type == "application/vnd.librarysimplified.bearer-token+json")
            #expect(links[index][0].acquisitionMediaTypes == [OPDSMediaType.epub])
        }
        #expect(feed.publications[4].title == "The Long Walk North")
        #expect(feed.publications[8].title == "The End of Coney Island Avenue")
    }

    @Test func simplyESearchPageEntriesHaveTheirLanguages() throws {
        let feed = try OPDSCorpus.feed("opds1/simplye-classics-search-corner.xml")
        let languages = feed.publications.map { $0.metadata.languages.first ?? "" }
        #expect(languages == ["en", "en", "en", "es", "en", "fr", "it", "en", "en", "en"])
        #expect(feed.publications[3].title == "¡Adiós, Cordera!")
    }

    @Test func simplyELoansHaveUntypedAcquisitionsWithTheirLoanDates() throws {
        let feed = try OPDSCorpus.feed("opds1/simplye-loans.xml")
        #expect(feed.metadata.title == "Active loans and holds")
        #expect(feed.publications.count == 2)
        for (index, entry) in feed.publications.enumerated() {
            let link = try #require(entry.acquisitionLinks.first)
            #expect(link.rels == [OPDSRel.acquisition])
            #expect(link.type == nil)
            #expect(link.acquisitionChains == [["application/vnd.adobe.adept+xml", "application/epub+zip"]])
            #expect(link.availability?.state == "available")
            #expect(link.availability?.since == "2000-01-01T00:00:00Z")
            #expect(link.availability?.until == (index == 1 ? "3000-01-01T00:00:00Z" : nil))
            #expect(link.holds?.total == 0)
            #expect(link.copies == OPDSCopies(total: 1, available: 1))
            #expect(entry.count(rel: "http://librarysimplified.org/terms/rel/revoke") == 1)
        }
    }

    @Test func dplaAudiobooksClaimEBookButAreAudiobooksByTheirAcquisition() throws {
        let feed = try OPDSCorpus.feed("opds1/dpla-exchange-audiobooks.xml")
        #expect(feed.groups.map(\.metadata.title) == ["Fiction"])
        let entries = feed.allPublications
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.metadata.type == "http://schema.org/EBook" && $0.isAudiobook })
        #expect(entries.allSatisfy {
            $0.acquisitionLinks[0].acquisitionMediaTypes == ["application/audiobook+json;profile=\"http://www.feedbooks.com/audiobooks/access-restriction\""]
        })
        #expect(entries.map { $0.acquisitionLinks[0].copies } == [OPDSCopies(total: 5, available: 5), OPDSCopies(total: 5, available: 4)])
        #expect(entries.allSatisfy { $0.acquisitionLinks[0].holds?.total == 0 })
        #expect(feed.links.count == 7)
        #expect(feed.links.map { $0.rels[0] } == ["self", "start", OPDSRel.authenticationDocument, "search", "http://opds-spec.org/shelf", "http://www.w3.org/ns/oa#annotationService", "help"])
    }

    @Test func libriVoxEntryIsAnOpenAccessAudiobookManifest() throws {
        let feed = try OPDSCorpus.feed("opds1/librivox-audiobook.opds")
        let entry = try #require(feed.publications.first)
        #expect(feed.publications.count == 1)
        #expect(entry.title == "Zhitiia Sviatykh, v. 12 - August")
        #expect(entry.acquisitionLinks.map(\.acquisitionKind) == ["open-access"])
        #expect(entry.acquisitionLinks.first?.type == OPDSMediaType.readiumAudiobook)
        #expect(entry.isAudiobook)
        let subjects = try #require(entry.metadata.otherMetadata["subject"]?.arrayValue)
        #expect(subjects.count == 11)
        let cyrillic = subjects.filter { ($0.objectValue?["name"]?.stringValue ?? "").unicodeScalars.contains { (0x400...0x4FF).contains($0.value) } }
        #expect(cyrillic.count == 2)
        #expect(entry.names("author") == ["Dimitrij\u{86}, Saint Metropolitan of Rostov"])
    }

    @Test func heldEntryIsReservedThirdInTheQueue() throws {
        let entry = try #require(OPDSCorpus.feed("opds1/entry-held-timed-queued.xml").publications.first)
        let borrow = try #require(entry.acquisitionLinks.first)
        #expect(borrow.acquisitionKind == "borrow")
        #expect(borrow.type == "application/atom+xml;relation=entry;profile=opds-catalog")
        #expect(borrow.availability == OPDSAvailability(state: "reserved", since: "2000-01-01T00:00:00Z", until: "2010-01-01T00:00:00Z"))
        #expect(borrow.holds == OPDSHolds(total: 0, position: 3))
        #expect(borrow.copies == OPDSCopies(total: 1, available: 0))
        #expect(entry.count(rel: "http://librarysimplified.org/terms/rel/revoke") == 1)
    }

    @Test func loanedEntryIsAvailableUntil2010WithItsNarrator() throws {
        let entry = try #require(OPDSCorpus.feed("opds1/entry-loaned-timed.xml").publications.first)
        let link = try #require(entry.acquisitionLinks.first)
        #expect(link.rels == [OPDSRel.acquisition])
        let chains = link.indirectAcquisitions.flatMap(\.chains)
        #expect(chains.contains(["application/vnd.adobe.adept+xml", "application/epub+zip"]))
        #expect(chains.contains { $0.last?.contains("streaming-media") == true })
        #expect(link.availability?.state == "available")
        #expect(link.availability?.until == "2010-01-01T00:00:00Z")
        #expect(link.copies == OPDSCopies(total: 1, available: 1))
        #expect(entry.names("narrator") == ["Alan Cumming"])
    }

    @Test func badURISyntaxFeedStillParses() throws {
        let feed = try OPDSCorpus.feed("opds1/bad-uri-syntax.xml")
        let entry = try #require(feed.publications.first ?? nil)
        #expect(entry.title == "50 Favourite Nursery Rhymes")
        #expect(entry.images.contains { $0.href == "http:// clearly not valid" })
        #expect(feed.metadata.identifier?.last?.isWhitespace == false)
        #expect(entry.entryID?.last?.isWhitespace == false)
        #expect(feed.warnings.contains { $0.message.contains("author without a name") })
        let resolved = feed.resolved(against: "https://example.org/feed.xml")
        #expect(resolved.publications[0].images.contains { $0.href == "http:// clearly not valid" })
        #expect(resolved.warnings.contains { $0.message.contains("not a valid URL") })
    }

    @Test func notXMLIsRefusedAsNotAFeed() throws {
        #expect(try OPDSCorpus.data("opds1/bad-not-xml.xml").count == 16)
        let error = try #require(throws: OPDSError.self) { try OPDSCorpus.feed("opds1/bad-not-xml.xml") }
        #expect(error.code == .catalogNotAFeed)
        #expect(error.description.hasPrefix("opds/opds1/bad-not-xml.xml: "))
    }
}
