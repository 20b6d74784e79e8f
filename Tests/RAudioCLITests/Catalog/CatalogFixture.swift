// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A catalog tree on a real nginx on 127.0.0.1, beside the sample audiobook and EPUB it lists:
///
///     catalog/root.xml          OPDS 1 navigation: "Sea stories" -> groups.json; search -> opensearch.xml
///     catalog/groups.json       OPDS 2: a group "Lighthouse keepers" whose self link is shelf/page1.json
///     catalog/shelf/page1.json  OPDS 2: one book to buy; next -> page2.json
///     catalog/shelf/page2.json  OPDS 2: Gull Rock (an audiobook manifest) and The Lighthouse (an EPUB), open access
///     catalog/opensearch.xml    OpenSearch: search.xml?q={searchTerms}&page={startPage}
///     catalog/search.xml        OPDS 1: the answer (nginx serves it whatever the query)
final class CatalogFixture {
    let books: RemoteBookFixture
    var server: NginxServer { books.server }
    let cache: TemporaryDirectory

    init() throws {
        books = try RemoteBookFixture()
        cache = try TemporaryDirectory()
        try server.add(URL(fileURLWithPath: SpeakCommandTests.sampleEPUB), as: "books/lighthouse.epub")
        try server.write(Self.root(search: server.url("catalog/opensearch.xml")), as: "catalog/root.xml")
        try server.write(Self.groups, as: "catalog/groups.json")
        try server.write(Self.page1, as: "catalog/shelf/page1.json")
        try server.write(Self.page2, as: "catalog/shelf/page2.json")
        try server.write(Self.openSearch(template: server.url("catalog/search.xml") + "?q={searchTerms}&amp;page={startPage}"), as: "catalog/opensearch.xml")
        try server.write(Self.searchResults, as: "catalog/search.xml")
    }

    /// Runs raudio with the catalog cache in the fixture's folder.
    func raudio(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> ProcessResult {
        var environment = environment
        environment["XDG_CACHE_HOME"] = environment["XDG_CACHE_HOME"] ?? cache.url.path
        environment["RAUDIO_RETRY_DELAYS"] = environment["RAUDIO_RETRY_DELAYS"] ?? "0.05"
        return try ProcessRunner.raudio(arguments, environment: environment, timeout: timeout)
    }

    /// The JSON lines of `result` of `type`.
    static func lines(_ result: ProcessResult, type: String) -> [JSONObject] {
        result.outputLines.compactMap { try? JSONParser.parse($0).objectValue }.filter { $0["type"]?.stringValue == type }
    }

    static func root(search: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <id>urn:raudio:test:root</id>
          <title>Test Catalog</title>
          <updated>2026-12-01T00:00:00Z</updated>
          <link rel="self" href="root.xml" type="application/atom+xml;profile=opds-catalog;kind=navigation"/>
          <link rel="search" href="\(search)" type="application/opensearchdescription+xml"/>
          <entry>
            <title>Sea stories</title>
            <id>urn:raudio:test:sea</id>
            <updated>2026-12-01T00:00:00Z</updated>
            <link rel="subsection" href="groups.json" type="application/opds+json"/>
          </entry>
        </feed>
        """
    }

    static let groups = """
        {"metadata": {"title": "Sea stories"}, "links": [{"rel": "self", "href": "groups.json", "type": "application/opds+json"}],
         "groups": [{"metadata": {"title": "Lighthouse keepers"}, "links": [{"rel": "self", "href": "shelf/page1.json", "type": "application/opds+json"}],
           "navigation": [{"href": "shelf/page1.json", "title": "All lighthouse keepers", "type": "application/opds+json"}]}]}
        """

    static let page1 = """
        {"metadata": {"title": "Lighthouse keepers", "numberOfItems": 3, "itemsPerPage": 1, "currentPage": 1},
         "links": [{"rel": "self", "href": "page1.json", "type": "application/opds+json"}, {"rel": "next", "href": "page2.json", "type": "application/opds+json"}],
         "publications": [{"metadata": {"title": "A Book To Buy", "identifier": "urn:raudio:test:buy"},
           "links": [{"rel": "http://opds-spec.org/acquisition/buy", "href": "https://shop.invalid/buy", "type": "application/epub+zip",
                      "properties": {"price": {"currency": "EUR", "value": 4.99}}}]}]}
        """

    static let page2 = """
        {"metadata": {"title": "Lighthouse keepers", "currentPage": 2},
         "links": [{"rel": "self", "href": "page2.json", "type": "application/opds+json"}, {"rel": "previous", "href": "page1.json", "type": "application/opds+json"}],
         "publications": [
          {"metadata": {"@type": "http://schema.org/Audiobook", "title": "Gull Rock", "identifier": "urn:raudio:test:gull-rock",
            "author": "The raudio authors", "narrator": "eSpeak NG", "duration": 20},
           "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "../../gull-rock/manifest.json", "type": "application/audiobook+json"}]},
          {"metadata": {"@type": "http://schema.org/EBook", "title": "The Lighthouse", "identifier": "urn:raudio:test:lighthouse"},
           "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "../../books/lighthouse.epub", "type": "application/epub+zip"}]}]}
        """

    static func openSearch(template: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
          <ShortName>Test</ShortName>
          <Url type="application/atom+xml;profile=opds-catalog;kind=acquisition" template="\(template)"/>
        </OpenSearchDescription>
        """
    }

    static let searchResults = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>urn:raudio:test:search</id>
          <title>Search results</title>
          <updated>2026-12-01T00:00:00Z</updated>
          <entry>
            <title>Gull Rock</title>
            <id>urn:raudio:test:gull-rock</id>
            <updated>2026-12-01T00:00:00Z</updated>
            <author><name>The raudio authors</name></author>
            <link rel="http://opds-spec.org/acquisition/open-access" href="../gull-rock/manifest.json" type="application/audiobook+json"/>
          </entry>
        </feed>
        """
}
