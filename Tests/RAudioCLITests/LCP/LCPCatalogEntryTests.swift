// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing

/// A catalog entry whose acquisition is an LCP licence goes through `raudio lcp acquire`'s code (issue 53).
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct LCPCatalogEntryTests {
    @Test func anLCPEntryIsAcquiredWithTheCatalogsTokenThenOpened() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let publication = try LCPVectorMaker.audiobookPackage(
            license: nil, contentKey: Data(count: 32), resources: [.init(href: "t.mp3", type: "audio/mpeg", data: LCPLoanCommandTests.track)]
        )
        server.answer("GET", "publication", with: .init(contentType: "application/audiobook+lcp", body: publication))
        let hash = SHA256.hash(data: publication).map { String(format: "%02x", $0) }.joined()
        let licence = try LCPLoanCommandTests.licence(links: [
            LCPVectorMaker.link("publication", server.url("publication"), type: "application/audiobook+lcp", length: publication.count, hash: hash),
        ])
        server.answer("GET", "loan.lcpl", with: .init(contentType: "application/vnd.readium.lcp.license.v1.0+json", body: licence, requiredAuthorization: "Bearer lib-token"))
        server.answer("GET", "loans.json", with: .init("""
            {"metadata": {"title": "Loans"}, "publications": [{"metadata": {"@type": "http://schema.org/Audiobook", "title": "Borrowed",
              "identifier": "urn:test:borrowed"}, "links": [{"rel": "http://opds-spec.org/acquisition", "href": "loan.lcpl",
              "type": "application/vnd.readium.lcp.license.v1.0+json",
              "properties": {"indirectAcquisition": [{"type": "application/audiobook+lcp"}]}}]}]}
            """, requiredAuthorization: "Bearer lib-token"))
        let folder = try TemporaryDirectory()
        try Data(#"{"token": "lib-token"}"#.utf8).write(to: folder.url.appendingPathComponent("token.json"))
        let environment = LCPLoanCommandTests.online.merging([
            "XDG_CACHE_HOME": folder.path("cache"), "RAUDIO_CATALOG_CREDENTIALS": folder.path("token.json"),
        ]) { $1 }

        let listed = try ProcessRunner.raudio(["catalog", server.url("loans.json")], environment: environment, timeout: 60)
        #expect(listed.status == 0, "\(listed.standardError)")
        let entry = try #require(CatalogFixture.lines(listed, type: "publication").first)
        #expect(entry["opens"] == "lcp")

        let result = try ProcessRunner.raudio(["info", server.url("loans.json") + "#urn%3Atest%3Aborrowed"], environment: environment, timeout: 60)
        let acquired = URL(fileURLWithPath: folder.path("cache/raudio/catalog-books/loan-test.lcpa"))
        #expect(result.standardError.contains("acquiring the LCP book of \(server.url("loans.json"))#urn%3Atest%3Aborrowed into \(acquired.path)"), "\(result.standardError)")
        #expect(try LCPLoanCommandTests.licenceEntry(of: acquired) == licence)
        #expect(server.requests.filter { $0.path == "/loan.lcpl" }.allSatisfy { $0.headers["authorization"] == "Bearer lib-token" })
        #expect(server.requests.filter { $0.path == "/publication" }.allSatisfy { $0.headers["authorization"] == nil })
        // The book is LCP-protected: info shows it, locked, as it shows any LCP book without its passphrase.
        #expect(result.status == 0, "\(result.standardError)")
    }
}
