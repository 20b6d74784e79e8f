// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing

/// `RAUDIO_LCP_OFFLINE=1` turns every LCP fetch off: the tests open real licences, whose links name outside hosts,
/// with it set. Proved here with links to a server of the test's own that counts what reaches it: nothing does.
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct SecurityLCPOfflineTests {
    @Test(arguments: [["renew"], ["return"], ["acquire"]])
    func withLCPFetchesOffNothingIsContacted(command: [String]) throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        server.answer("GET", "status", with: .init("{}"))
        server.answer("GET", "publication", with: .init("zip"))
        let folder = try TemporaryDirectory()
        var spec = LCPVectorMaker.License(issued: "2026-06-01T00:00:00Z")
        spec.links = [LCPVectorMaker.link("status", server.url("status")), LCPVectorMaker.link("publication", server.url("publication"))]
        try LCPVectorMaker(provider: .test2026).license(spec).write(to: folder.url.appendingPathComponent("loan.lcpl"))
        var arguments = ["lcp"] + command + [folder.path("loan.lcpl")]
        if command == ["acquire"] { arguments.append(folder.path("out.lcpa")) }
        let result = try ProcessRunner.raudio(arguments, environment: ["RAUDIO_LCP_OFFLINE": "1"], timeout: 60)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("RAUDIO_LCP_OFFLINE"), "\(result.standardError)")
        #expect(server.requests.isEmpty, "contacted offline: \(server.requests)")
    }
}
