// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio catalog` and `raudio play|speak|info CATALOG-URL#ENTRY` over a catalog tree on nginx (issue 53).
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
struct CatalogCommandTests {
    /// Navigation, then a group, then page 2, then an audiobook entry that `raudio play` streams and an EPUB entry
    /// that `raudio speak` reads.
    @Test func navigationToAGroupToPage2ToAnAudiobookPlayedAndAnEPUBSpoken() throws {
        let fixture = try CatalogFixture()
        let root = try fixture.raudio(["catalog", fixture.server.url("catalog/root.xml")])
        #expect(root.status == 0, "\(root.standardError)")
        let feed = try #require(CatalogFixture.lines(root, type: "feed").first)
        #expect(feed["title"] == "Test Catalog")
        let navigation = CatalogFixture.lines(root, type: "navigation")
        #expect(navigation.map { $0["title"]?.stringValue } == ["Sea stories"])
        let groupsURL = try #require(navigation.first?["href"]?.stringValue)
        #expect(groupsURL == fixture.server.url("catalog/groups.json"))

        let groups = try fixture.raudio(["catalog", groupsURL])
        #expect(groups.status == 0, "\(groups.standardError)")
        let group = try #require(CatalogFixture.lines(groups, type: "feed").first?["groups"]?.arrayValue?.first?.objectValue)
        #expect(group["title"] == "Lighthouse keepers")
        let shelf = try #require(group["href"]?.stringValue)
        #expect(shelf == fixture.server.url("catalog/shelf/page1.json"))

        let page2 = try fixture.raudio(["catalog", shelf, "--page", "2"])
        #expect(page2.status == 0, "\(page2.standardError)")
        let publications = CatalogFixture.lines(page2, type: "publication")
        #expect(publications.map { $0["title"]?.stringValue } == ["Gull Rock", "The Lighthouse"])
        #expect(publications.map { $0["format"]?.stringValue } == ["audiobook", "epub"])
        #expect(publications[0]["narrators"] == .array(["eSpeak NG"]))
        #expect(publications[0]["duration"] == 20)
        #expect(publications.allSatisfy { $0["opens"] == "open" })
        let audiobook = try #require(publications[0]["entry"]?.stringValue)
        #expect(audiobook == fixture.server.url("catalog/shelf/page2.json") + "#urn%3Araudio%3Atest%3Agull-rock")
        let epub = try #require(publications[1]["entry"]?.stringValue)

        let reference = try fixture.books.localRendering(of: RemoteBookFixture.tracks)
        let wav = fixture.books.folder.path("catalog.wav")
        let played = try fixture.raudio(["play", audiobook, "--output", "wav:\(wav)"])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        #expect(RemoteBookFixture.events(played, type: "track").count == 3)

        let spoken = try fixture.raudio(["speak", epub, "--output", "null", "--duration", "2"])
        #expect(spoken.status == 0, "\(spoken.standardError)")
        let opened = try #require(RemoteBookFixture.events(spoken, type: "opened").first?["publication"]?.objectValue)
        #expect(opened["title"]?.stringValue?.isEmpty == false)
        #expect(!RemoteBookFixture.events(spoken, type: "utterance").isEmpty)
        #expect(fixture.server.accessLog.contains { $0.contains("/books/lighthouse.epub") })

        let info = try fixture.raudio(["info", audiobook])
        #expect(info.status == 0, "\(info.standardError)")
    }

    @Test func searchGoesThroughTheOpenSearchTemplate() throws {
        let fixture = try CatalogFixture()
        let result = try fixture.raudio(["catalog", fixture.server.url("catalog/root.xml"), "--search", "gull rock"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(CatalogFixture.lines(result, type: "publication").map { $0["title"]?.stringValue } == ["Gull Rock"])
        #expect(fixture.server.accessLog.contains { $0.contains("/catalog/opensearch.xml") })
        #expect(fixture.server.accessLog.contains { $0.contains("/catalog/search.xml") })
        // The page listed is the template's URL, filled (nginx's log leaves queries out).
        #expect(CatalogFixture.lines(result, type: "feed").first?["url"]?.stringValue == fixture.server.url("catalog/search.xml") + "?q=gull%20rock&page=1")
    }

    /// A feed read again is asked for with its validator, and nginx answers 304.
    @Test func aFeedReadAgainIsRevalidated() throws {
        let fixture = try CatalogFixture()
        for _ in 0..<2 {
            let result = try fixture.raudio(["catalog", fixture.server.url("catalog/groups.json")])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let requests = fixture.server.accessLog.filter { $0.contains("/catalog/groups.json") }
        #expect(requests.count == 2 && requests[0].contains(" 200 ") && requests[1].contains(" 304 "), "\(requests)")
        let cached = try FileManager.default.contentsOfDirectory(atPath: fixture.cache.path("raudio/catalogs"))
        #expect(cached.count == 2, "\(cached)")
    }

    @Test func anEntryThatCanOnlyBeBoughtSaysSo() throws {
        let fixture = try CatalogFixture()
        let result = try fixture.raudio(["play", fixture.server.url("catalog/shelf/page1.json") + "#1", "--output", "null"])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("\"A Book To Buy\" offers only what raudio cannot open (buy EUR 4.99"), "\(result.standardError)")
    }

    @Test func anEntryNotInTheFeedIsNotFound() throws {
        let fixture = try CatalogFixture()
        let url = fixture.server.url("catalog/shelf/page2.json") + "#urn%3Anothing"
        let result = try fixture.raudio(["info", url])
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains("\(url): the feed has no entry \"urn:nothing\""), "\(result.standardError)")
    }

    @Test func aReadableListOnATerminalIsNotJSON() throws {
        let fixture = try CatalogFixture()
        let result = try fixture.raudio(["catalog", fixture.server.url("catalog/shelf/page2.json"), "--json"])
        #expect(result.outputLines.allSatisfy { (try? JSONParser.parse($0)) != nil })
        #expect(CatalogFixture.lines(result, type: "feed").first?["v"] == 1)
    }
}

/// A catalog that needs a bearer token, and the bad input of issue 53: HTML, truncated, looping, huge, refused.
@Suite
struct CatalogFailureTests {
    static let feed = """
        {"metadata": {"title": "Loans"}, "links": [{"rel": "self", "href": "loans.json", "type": "application/opds+json"}],
         "publications": [{"metadata": {"title": "Borrowed"}, "links": [{"rel": "http://opds-spec.org/acquisition", "href": "b.epub", "type": "application/epub+zip"}]}]}
        """
    static let authentication = """
        {"id": "urn:test:auth", "title": "Token Library", "authentication": [{"type": "http://opds-spec.org/auth/oauth/implicit",
         "links": [{"rel": "authenticate", "href": "https://auth.invalid/"}]}], "links": []}
        """

    private func run(_ arguments: [String], cache: TemporaryDirectory, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.raudio(arguments, environment: environment.merging(["XDG_CACHE_HOME": cache.url.path]) { $1 }, timeout: 60)
    }

    @Test func aBearerTokenFeedIsAnsweredAfterAuthentication() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        server.answer("GET", "loans.json", with: .init(Self.feed, requiredAuthorization: "Bearer t0ken-s3cret", unauthorized: Self.authentication))
        let refused = try run(["catalog", server.url("loans.json")], cache: cache)
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("\(server.url("loans.json")): the catalog asks to sign in (401 Unauthorized) by Token Library: bearer-token"), "\(refused.standardError)")
        let credentials = cache.url.appendingPathComponent("token.json")
        try Data(#"{"token": "t0ken-s3cret"}"#.utf8).write(to: credentials)
        let answered = try run(["catalog", server.url("loans.json"), "--credentials", credentials.path], cache: cache)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(CatalogFixture.lines(answered, type: "publication").map { $0["title"]?.stringValue } == ["Borrowed"])
        #expect(!(answered.standardOutput + answered.standardError).contains("t0ken-s3cret"))
        // The environment names the file for play, speak and info; a wrong token is refused, and not shown.
        try Data(#"{"token": "wrong-t0ken"}"#.utf8).write(to: credentials)
        let wrong = try run(["catalog", server.url("loans.json")], cache: cache, environment: ["RAUDIO_CATALOG_CREDENTIALS": credentials.path])
        #expect(wrong.status == 65)
        #expect(wrong.standardError.contains("refused the credentials"), "\(wrong.standardError)")
        #expect(!(wrong.standardOutput + wrong.standardError).contains("wrong-t0ken"))
        // What was fetched with credentials is not kept.
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: cache.path("raudio/catalogs"))) ?? []
        #expect(kept.isEmpty, "\(kept)")
    }

    @Test func anHTMLPageIsNotAFeed() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        server.answer("GET", "catalog", with: .init(contentType: "text/html", "<!DOCTYPE html>\n<html><head><title>Library</title></head><body></body></html>", etag: "\"p\""))
        let result = try run(["catalog", server.url("catalog")], cache: cache)
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(server.url("catalog")): is a web page (HTML), not an OPDS feed"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: cache.path("raudio/catalogs")))
    }

    @Test func aTruncatedFeedIsMalformedAndNotCached() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        let whole = CatalogFixture.root(search: "https://h.invalid/os.xml")
        server.answer("GET", "root.xml", with: .init(contentType: "application/atom+xml", String(whole.prefix(whole.count / 2)), etag: "\"t\""))
        let result = try run(["catalog", server.url("root.xml")], cache: cache)
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(server.url("root.xml")): is not a well-formed OPDS feed"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: cache.path("raudio/catalogs")))
    }

    @Test func nextLinksThatLoopAreRefused() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        for (page, next) in [("a.json", "b.json"), ("b.json", "a.json")] {
            server.answer("GET", page, with: .init("""
                {"metadata": {"title": "\(page)"}, "links": [{"rel": "next", "href": "\(next)"}], "navigation": [{"href": "x.json", "title": "x"}]}
                """))
        }
        #expect(try run(["catalog", server.url("a.json"), "--page", "2"], cache: cache).status == 0)
        let result = try run(["catalog", server.url("a.json"), "--page", "3"], cache: cache)
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(server.url("a.json")): the next link of page 2 (\(server.url("b.json"))) leads back to a page already read"), "\(result.standardError)")
    }

    @Test func aHugeFeedIsRefused() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        let publication = #"{"metadata": {"title": "x"}, "links": [{"rel": "self", "href": "x"}]},"#
        let body = "{\"metadata\": {\"title\": \"Huge\"}, \"publications\": [" + String(repeating: publication, count: 17 * 1024 * 1024 / publication.utf8.count) + "{}]}"
        server.answer("GET", "huge.json", with: .init(body))
        let result = try run(["catalog", server.url("huge.json")], cache: cache)
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(server.url("huge.json")): is larger than 16 MB, too large for a catalog page"), "\(result.standardError)")
    }
}
