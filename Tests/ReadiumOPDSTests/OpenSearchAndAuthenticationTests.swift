// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// `opensearch/` and `auth/`: the corpus README's facts.
@Suite("OpenSearch and OPDS authentication documents", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct OpenSearchAndAuthenticationTests {
    static let standardEbooks = "opensearch/standardebooks-opensearch.xml"

    @Test func standardEbooksDescriptionHasThreeURLsAndAnExample() throws {
        let description = try OpenSearchDescription(data: OPDSCorpus.data(Self.standardEbooks), url: Self.standardEbooks)
        #expect(description.shortName == "Standard Ebooks")
        #expect(description.urls.map(\.type) == ["application/xhtml+xml", "application/atom+xml", "application/atom+xml;profile=opds-catalog;kind=acquisition"])
        #expect(description.urls.allSatisfy { $0.template.hasSuffix("?query={searchTerms}&per-page={count}&page={startPage}") })
        #expect(description.opdsTemplate?.template == "https://standardebooks.org/feeds/opds/all?query={searchTerms}&per-page={count}&page={startPage}")
        #expect(description.exampleSearchTerms == "fiction")
        #expect(description.exampleCount == 12)
    }

    @Test func standardEbooksSearchFillsEveryRequiredParameter() throws {
        let description = try OpenSearchDescription(data: OPDSCorpus.data(Self.standardEbooks), url: Self.standardEbooks)
        #expect(description.searchURL(terms: "moby dick") == "https://standardebooks.org/feeds/opds/all?query=moby%20dick&per-page=12&page=1")
        #expect(description.searchURL(terms: "fiction", page: 3) == "https://standardebooks.org/feeds/opds/all?query=fiction&per-page=12&page=3")
    }

    @Test func nyplAuthenticationDocumentHasItsBasicFlowAndLinks() throws {
        let document = try AuthenticationDocument(data: OPDSCorpus.data("auth/nypl-2019-06-03.json"), url: "auth/nypl-2019-06-03.json")
        #expect(document.identifier == "https://circulation.librarysimplified.org/NYNYPL/authentication_document")
        #expect(document.title == "The New York Public Library")
        #expect(document.authentications.count == 1)
        let basic = try #require(document.authentications.first)
        #expect(basic.type == AuthenticationDocument.basic)
        #expect(basic.flow == .basic)
        #expect(basic.loginLabel == "Barcode" && basic.passwordLabel == "PIN")
        #expect(basic.inputs["login"]?.objectValue?["barcode_format"]?.stringValue == "Codabar")
        #expect(basic.inputs["password"]?.objectValue?["maximum_length"]?.intValue == 4)
        #expect(basic.inputs["password"]?.objectValue?["keyboard"]?.stringValue == "Number pad")
        #expect(document.links.count == 13)
        #expect(document.links.first { $0.rels.contains("help") }?.type == nil)
        let logo = try #require(document.links.first { $0.rels.contains("logo") })
        #expect(logo.href.hasPrefix("data:image/png;base64,") && logo.href.count == 34_698)
        #expect(document.links.contains { $0.rels.contains { $0.contains("designated-agent") } && $0.href.hasPrefix("mailto:") })
        #expect(document.preferredAuthentication?.flow == .basic)
    }

    @Test func palaceAuthenticationDocumentNamesBasicOAuthAndTokenFlows() throws {
        let document = try AuthenticationDocument(data: OPDSCorpus.data("auth/palace-example.json"), url: "auth/palace-example.json")
        #expect(document.authentications.map(\.type) == [AuthenticationDocument.basic, AuthenticationDocument.oauthImplicit, AuthenticationDocument.palaceBasicToken])
        #expect(document.authentications.map(\.flow) == [.basic, .bearerToken, .bearerToken])
        #expect(document.authentications[0].loginLabel == "Library card" && document.authentications[0].passwordLabel == "PIN")
        #expect(Set(document.authentications[1].links.flatMap(\.rels)) == ["authenticate", "refresh"])
        #expect(document.links.count == 5)
        let logo = try #require(document.links.first { $0.rels.contains("logo") })
        #expect(logo.width == 90 && logo.height == 90)
        // The corpus README says "https" for the third; the file has http://example.com/support.
        let help = document.links.filter { $0.rels.contains("help") }.map(\.href)
        #expect(help.count == 3)
        #expect(help.contains { $0.hasPrefix("mailto:") } && help.contains { $0.hasPrefix("tel:") } && help.contains { $0.hasPrefix("http:") })
        #expect(document.links.contains { $0.rels.contains("register") })
    }

    @Test func anAuthenticationDocumentIsNotTakenForAFeed() throws {
        let error = try #require(throws: OPDSError.self) { try OPDSCorpus.feed("auth/palace-example.json") }
        #expect(error.code == .catalogAuthenticationFailed)
    }
}

/// RFC 6570 expansion, as templated OPDS 2 links use it.
@Suite("URI templates")
struct URITemplateTests {
    @Test func formStyleQueryAndContinuationExpand() {
        #expect(URITemplate.expand("https://h/s{?query}", ["query": "a b&c"]) == "https://h/s?query=a%20b%26c")
        #expect(URITemplate.expand("https://h/borrow?x=1{&authentication_token}", ["authentication_token": "t"]) == "https://h/borrow?x=1&authentication_token=t")
        #expect(URITemplate.expand("https://h/s{?query,page}", ["page": "2"]) == "https://h/s?page=2")
    }

    @Test func anUndefinedVariableIsLeftOut() {
        #expect(URITemplate.expand("https://h/s{?query}", [:]) == "https://h/s")
        #expect(URITemplate.expand("https://h/{id}/x", [:]) == "https://h//x")
    }

    @Test func simplePathAndReservedExpressionsExpand() {
        #expect(URITemplate.expand("https://h/{id}", ["id": "a/b"]) == "https://h/a%2Fb")
        #expect(URITemplate.expand("https://h{+path}", ["path": "/a/b"]) == "https://h/a/b")
        #expect(URITemplate.expand("https://h{/id}", ["id": "x"]) == "https://h/x")
        #expect(URITemplate.variables(of: "https://h/s{?query,page}{&x}") == ["query", "page", "x"])
    }
}

/// Relative hrefs made absolute against the URL that served the feed.
@Suite("Feed link resolution", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct FeedResolvingTests {
    @Test func relativeLinksResolveAgainstTheServedURL() throws {
        let feed = try OPDSCorpus.feed("opds1/feedbooks-test-catalog-acquisition.xml").resolved(against: "https://cdn.example.org/test/acquisition/main.xml")
        #expect(feed.nextLink?.href == "https://cdn.example.org/test/acquisition/page2.xml")
        #expect(feed.link(withRel: "start")?.href == "https://cdn.example.org/test/root.xml")
        #expect(feed.searchLink?.href == "https://cdn.example.org/test/opensearch.xml")
    }

    @Test func rootRelativeFacetsAndTemplatesResolve() throws {
        let facets = try OPDSCorpus.feed("opds1/opds-spec-acquisition-facets.atom").resolved(against: "https://h.example/a/b.atom")
        #expect(facets.facets[0].activeLink?.href == "https://h.example/sci-fi")
        let cantook = try OPDSCorpus.feed("opds2/cantook-epl-audiobooks-page1.json").resolved(against: "https://other.example/x")
        #expect(cantook.searchLink?.href == "https://epl.cantookstation.com/v1/resources.opds2{?query}")
        let relative = Feed(metadata: FeedMetadata(title: "t"), links: [Link(href: "search{?query}", templated: true, rels: ["search"])])
        #expect(relative.resolved(against: "https://h.example/cat/feed.json").searchLink?.href == "https://h.example/cat/search{?query}")
    }
}
