// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// Catalog documents fetched with raudio's HTTP client (libcurl) from a server of the test's own on 127.0.0.1.
@Suite("Catalog fetching")
struct CatalogFetcherTests {
    static let feed = """
        {"metadata": {"title": "Shelf"}, "links": [{"rel": "self", "href": "shelf.json", "type": "application/opds+json"},
         {"rel": "next", "href": "page2.json", "type": "application/opds+json"}],
         "publications": [{"metadata": {"title": "A Book"}, "links": [{"rel": "http://opds-spec.org/acquisition/open-access",
         "href": "../books/a.epub", "type": "application/epub+zip"}]}]}
        """
    static let authentication = """
        {"id": "https://library.example/auth", "title": "Test Library", "authentication": [{"type": "http://opds-spec.org/auth/basic",
         "labels": {"login": "Card", "password": "PIN"}}], "links": []}
        """

    private func fetcher(cache: TemporaryDirectory? = nil, credentials: CatalogCredentials? = nil, host: String? = "127.0.0.1") -> CatalogFetcher {
        var fetcher = CatalogFetcher(client: CurlHTTPClient(), cache: cache.map { CatalogCache(folder: $0.url) }, credentials: credentials, credentialsHost: host)
        fetcher.retryDelays = []
        return fetcher
    }

    @Test func relativeLinksResolveAgainstTheURLAfterRedirects() throws {
        let server = try ScriptedHTTPServer()
        var moved = ScriptedHTTPServer.Answer(status: 302, "")
        moved.extraHeaders = ["Location": server.url("catalog/v2/shelf.json")]
        server.answer("GET", "old/shelf.json", with: moved)
        server.answer("GET", "catalog/v2/shelf.json", with: .init(Self.feed))
        let feed = try fetcher().feed(at: server.url("old/shelf.json"))
        #expect(feed.nextLink?.href == server.url("catalog/v2/page2.json"))
        #expect(feed.publications[0].acquisitionLinks[0].href == server.url("catalog/books/a.epub"))
    }

    @Test func aFeedIsRevalidatedWithItsETagAndServedFromTheCacheOn304() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        server.answer("GET", "shelf.json", with: .init(Self.feed, etag: "\"v1\""))
        let first = try fetcher(cache: cache).fetch(server.url("shelf.json"))
        #expect(!first.fromCache)
        _ = try fetcher(cache: cache).feed(at: server.url("shelf.json"))
        let second = try fetcher(cache: cache).feed(at: server.url("shelf.json"))
        #expect(second.metadata.title == "Shelf")
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(requests[0].headers["if-none-match"] == nil)
        #expect(requests[2].headers["if-none-match"] == "\"v1\"")
        #expect(try fetcher(cache: cache).fetch(server.url("shelf.json")).fromCache)
    }

    @Test func aDocumentThatDoesNotParseIsNotCached() throws {
        let server = try ScriptedHTTPServer()
        let cache = try TemporaryDirectory()
        server.answer("GET", "shelf.json", with: .init(String(Self.feed.prefix(60)), etag: "\"broken\""))
        let error = try #require(throws: OPDSError.self) { try fetcher(cache: cache).feed(at: server.url("shelf.json")) }
        #expect(error.code == .catalogMalformed)
        #expect(error.description.contains(server.url("shelf.json")))
        #expect(CatalogCache(folder: cache.url).entry(for: server.url("shelf.json")) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.url.path).isEmpty)
    }

    @Test func aWebPageIsRefusedNamingItsURL() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "login", with: .init(contentType: "text/html", "<!DOCTYPE html><html><body>Sign in</body></html>"))
        let error = try #require(throws: OPDSError.self) { try fetcher().feed(at: server.url("login")) }
        #expect(error.code == .catalogNotAFeed)
        #expect(error.description.hasPrefix(server.url("login") + ": is a web page (HTML)"))
    }

    @Test func aFeedLargerThanTheLimitIsRefused() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "huge.json", with: .init(body: Data(repeating: UInt8(ascii: " "), count: 300_000)))
        var small = fetcher()
        small.maximumBytes = 100_000
        let error = try #require(throws: OPDSError.self) { try small.feed(at: server.url("huge.json")) }
        #expect(error.code == .tooLarge)
    }

    @Test func aCatalogThatAsksToSignInSaysHow() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "loans.json", with: .init(Self.feed, requiredAuthorization: "Bearer s3cret", unauthorized: Self.authentication))
        let error = try #require(throws: OPDSError.self) { try fetcher().feed(at: server.url("loans.json")) }
        #expect(error.code == .catalogAuthenticationFailed)
        #expect(error.message.contains("Test Library") && error.message.contains("basic (Card and PIN)"), "\(error)")
        let feed = try fetcher(credentials: .bearer(token: "s3cret")).feed(at: server.url("loans.json"))
        #expect(feed.publications.count == 1)
        #expect(server.requests.last?.headers["authorization"] == "Bearer s3cret")
        let refused = try #require(throws: OPDSError.self) { try fetcher(credentials: .bearer(token: "wrong")).feed(at: server.url("loans.json")) }
        #expect(refused.message.contains("refused the credentials"))
        #expect(!refused.description.contains("wrong"))
    }

    @Test func basicCredentialsGoAsBasicAuthorizationAndAreNeverShown() throws {
        let server = try ScriptedHTTPServer()
        let expected = "Basic " + Data("card:1234".utf8).base64EncodedString()
        server.answer("GET", "loans.json", with: .init(Self.feed, requiredAuthorization: expected, unauthorized: Self.authentication))
        let credentials = CatalogCredentials.basic(login: "card", password: "1234")
        #expect(try fetcher(credentials: credentials).feed(at: server.url("loans.json")).publications.count == 1)
        #expect(!"\(credentials)".contains("1234") && !"\(credentials)".contains("card"))
    }

    /// Credentials go to the catalog's host only: `localhost` is another host than `127.0.0.1`.
    @Test func credentialsAreNotSentToAnotherHost() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "open.json", with: .init(Self.feed))
        _ = try fetcher(credentials: .bearer(token: "s3cret"), host: "127.0.0.1").feed(at: "http://localhost:\(server.port)/open.json")
        #expect(server.requests.last?.headers["authorization"] == nil)
        _ = try fetcher(credentials: .bearer(token: "s3cret"), host: "127.0.0.1").feed(at: server.url("open.json"))
        #expect(server.requests.last?.headers["authorization"] == "Bearer s3cret")
    }

    /// libcurl's handles are reused: the headers of one request (its credentials) are not sent with the next.
    @Test func aRequestAfterAnAuthorizedOneCarriesNoCredentials() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "open.json", with: .init(Self.feed))
        let client = CurlHTTPClient()
        var fetcher = CatalogFetcher(client: client, credentials: .bearer(token: "s3cret"), credentialsHost: "127.0.0.1")
        fetcher.retryDelays = []
        _ = try fetcher.feed(at: server.url("open.json"))
        #expect(server.requests.last?.headers["authorization"] == "Bearer s3cret")
        _ = try CatalogFetcher(client: client).feed(at: server.url("open.json"))
        #expect(server.requests.last?.headers["authorization"] == nil)
    }

    /// A probe reads only the first bytes of what is not a catalog (an audio file behind `URL#fragment`).
    @Test func aProbeStopsAtTheFirstBytesOfWhatIsNotAFeed() throws {
        let server = try ScriptedHTTPServer()
        server.answer("GET", "book.mp3", with: .init(contentType: "audio/mpeg", body: Data([0x49, 0x44, 0x33]) + Data(repeating: 0, count: 2_000_000)))
        let error = try #require(throws: OPDSError.self) { try fetcher().feed(at: server.url("book.mp3"), probing: true) }
        #expect(error.code == .catalogNotAFeed)
    }

    @Test func credentialsFilesHoldALoginAndPasswordOrAToken() throws {
        let folder = try TemporaryDirectory()
        let basic = folder.url.appendingPathComponent("basic.json")
        try Data(#"{"login": "card", "password": "1234"}"#.utf8).write(to: basic)
        #expect(try CatalogCredentials.read(file: basic) == .basic(login: "card", password: "1234"))
        let token = folder.url.appendingPathComponent("token.json")
        try Data(#"{"token": "abc"}"#.utf8).write(to: token)
        #expect(try CatalogCredentials.read(file: token) == .bearer(token: "abc"))
        let bad = folder.url.appendingPathComponent("bad.json")
        try Data(#"{"secret": "do-not-show"}"#.utf8).write(to: bad)
        let error = try #require(throws: OPDSError.self) { try CatalogCredentials.read(file: bad) }
        #expect(!error.description.contains("do-not-show"))
    }
}
