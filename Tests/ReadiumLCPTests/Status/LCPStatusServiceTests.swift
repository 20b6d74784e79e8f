// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing
import ZIPFoundation
@testable import ReadiumLCP

/// The network part of a licence's validation against status documents served by a server of the test's own on
/// 127.0.0.1: offline and unreachable are warnings, a loan that is over is refused with its date, a newer licence
/// is fetched and written back, the device registers once, renew and return PUT to their links.
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct LCPStatusServiceTests {
    static let device = LCPDevice(id: "device-1", name: "raudio")

    /// A signed licence whose `status` link is `statusURL`, and its parsed form.
    static func license(statusURL: String?, updated: String = "2026-06-01T00:00:00Z", end: String? = nil) throws -> (Data, LicenseDocument) {
        var spec = LCPVectorMaker.License(issued: "2026-06-01T00:00:00Z")
        spec.id = "status-test-licence"
        spec.updated = updated
        spec.end = end
        if let statusURL { spec.links = [LCPVectorMaker.link("status", statusURL, type: "application/vnd.readium.license.status.v1.0+json")] }
        let data = try LCPVectorMaker(provider: .test2026).license(spec)
        return (data, try LicenseDocument(data: data, source: "test.lcpl"))
    }

    static func status(_ word: String, server: ScriptedHTTPServer, licenseUpdated: String = "2026-06-01T00:00:00Z", links: [JSONValue] = [],
                       events: [JSONValue] = []) -> Data {
        LCPVectorMaker.statusDocument(licenseID: "status-test-licence", status: word, licenseUpdated: licenseUpdated,
                                      statusUpdated: "2026-07-14T10:00:00Z", links: links, events: events)
    }

    func service(_ policy: LCPNetworkPolicy = LCPNetworkPolicy(statusTimeout: 3, actionTimeout: 5), registry: any LCPDeviceRegistry = LCPMemoryDeviceRegistry()) -> LCPStatusService {
        LCPStatusService(client: CurlHTTPClient(), policy: policy, device: Self.device, registry: registry)
    }

    @Test func offlineTheStatusIsNotFetchedAndPlaybackGoesOnWithAWarning() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        server.answer("GET", "status", with: .init(body: Self.status("revoked", server: server)))
        let (_, license) = try Self.license(statusURL: server.url("status"))
        let report = try service(LCPNetworkPolicy(fetchesAllowed: false)).check(license, source: "book.lcpa")
        #expect(report.status == nil)
        #expect(report.warnings.count == 1 && report.warnings[0].description.contains("RAUDIO_LCP_OFFLINE"), "\(report.warnings)")
        #expect(server.requests.isEmpty, "offline, the status server got \(server.requests)")
        #expect(LCPNetworkPolicy.fromEnvironment(["RAUDIO_LCP_OFFLINE": "1"]).fetchesAllowed == false)
        #expect(LCPNetworkPolicy.fromEnvironment([:]).fetchesAllowed == true)
    }

    @Test func anUnreachableOrSlowOrBrokenStatusServerIsAWarningNotAnError() throws {
        let closed = try LoopbackPort.free()
        let (_, unreachable) = try Self.license(statusURL: "http://127.0.0.1:\(closed)/status")
        let first = try service().check(unreachable, source: "book.lcpa")
        #expect(first.status == nil && first.warnings.count == 1, "\(first.warnings)")

        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        server.answer("GET", "slow", with: .init(body: Self.status("revoked", server: server), delay: 6))
        server.answer("GET", "broken", with: .init("{\"status\": 12}"))
        server.answer("GET", "error", with: .init(status: 503, "{}"))
        for path in ["slow", "broken", "error"] {
            let (_, license) = try Self.license(statusURL: server.url(path))
            let report = try service(LCPNetworkPolicy(statusTimeout: 1)).check(license, source: "book.lcpa")
            #expect(report.status == nil && report.warnings.count == 1, "\(path): \(report.warnings)")
        }
    }

    @Test(arguments: [("revoked", RAudioErrorCode.lcpLicenseRevoked, "revoked on 2026-07-14T10:00:00Z after 2 device(s) registered"),
                      ("returned", .lcpLicenseReturned, "returned on 2026-07-14T10:00:00Z"),
                      ("cancelled", .lcpLicenseCancelled, "cancelled on 2026-07-14T10:00:00Z"),
                      ("expired", .lcpLicenseExpired, "expired on 2026-07-01T00:00:00Z")])
    func aLoanThatIsOverIsRefusedWithItsDate(status: String, code: RAudioErrorCode, words: String) throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let registered: [JSONValue] = ["a", "b"].map { .object(JSONObject([("type", "register"), ("id", .string($0)), ("name", "x"), ("timestamp", "2026-06-02T00:00:00Z")])) }
        server.answer("GET", "status", with: .init(body: Self.status(status, server: server, events: registered)))
        let (_, license) = try Self.license(statusURL: server.url("status"), end: "2026-07-01T00:00:00Z")
        let error = #expect(throws: LCPError.self) { try service().check(license, source: "book.lcpa") }
        #expect(error?.code == code)
        #expect(error?.description.contains(words) == true, "\(error?.description ?? "")")
        // Through LCPService (the opener's way), the same refusal.
        let checker = LCPNetworkStatusChecker(service: service())
        let viaChecker = #expect(throws: LCPError.self) { try checker.check(license, source: "book.lcpa") }
        #expect(viaChecker?.code == code)
    }

    @Test func anActiveLoanRegistersTheDeviceOnceWithItsIdAndName() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let links = [LCPVectorMaker.link("register", server.url("register{?id,name}"), templated: true)]
        server.answer("GET", "status", with: .init(body: Self.status("ready", server: server, links: links)))
        server.answer("POST", "register", with: .init(body: Self.status("active", server: server)))
        let (_, license) = try Self.license(statusURL: server.url("status"))
        let registry = LCPMemoryDeviceRegistry()
        let first = try service(registry: registry).check(license, source: "book.lcpa")
        let second = try service(registry: registry).check(license, source: "book.lcpa")
        #expect(first.registeredDevice && !second.registeredDevice)
        #expect(first.warnings.isEmpty && second.warnings.isEmpty, "\(first.warnings) \(second.warnings)")
        let registrations = server.requests.filter { $0.path == "/register" }
        #expect(registrations.map(\.method) == ["POST"])
        #expect(registrations.first?.query("id") == "device-1" && registrations.first?.query("name") == "raudio")
    }

    @Test func aNewerLicenceIsFetchedAndWrittenBackIntoThePackageNothingElseChanging() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let (oldData, license) = try Self.license(statusURL: server.url("status"))
        let (newData, _) = try Self.license(statusURL: server.url("status"), updated: "2026-07-01T00:00:00Z", end: "2026-12-31T00:00:00Z")
        server.answer("GET", "status", with: .init(body: Self.status("active", server: server, licenseUpdated: "2026-07-01T00:00:00Z",
                                                                     links: [LCPVectorMaker.link("license", server.url("license"))])))
        server.answer("GET", "license", with: .init(body: newData))
        let report = try service().check(license, source: "book.lcpa")
        #expect(report.newerLicense == newData, "\(report.warnings)")

        let folder = try TemporaryDirectory()
        let package = folder.url.appendingPathComponent("book.lcpa")
        let track = Data((0..<50_000).map { UInt8($0 % 251) })
        try LCPVectorMaker.audiobookPackage(license: oldData, contentKey: Data(count: 32), resources: [.init(href: "track.mp3", type: "audio/mpeg", data: track)]).write(to: package)
        let before = try Self.entries(of: package)
        try LicenseWriteBack.write(newData, into: package)
        var after = try Self.entries(of: package)
        #expect(after["license.lcpl"] == newData)
        after["license.lcpl"] = before["license.lcpl"]
        #expect(after == before, "an entry other than the licence changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["book.lcpa"], "a temporary file was left")

        // Writing into something that is not a ZIP fails and leaves it as it was, with no file beside it.
        let notZIP = folder.url.appendingPathComponent("broken.lcpa")
        try Data("not a zip".utf8).write(to: notZIP)
        #expect(throws: LCPNetworkError.self) { try LicenseWriteBack.write(newData, into: notZIP) }
        #expect(try Data(contentsOf: notZIP) == Data("not a zip".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["book.lcpa", "broken.lcpa"])
    }

    static func entries(of url: URL) throws -> [String: Data] {
        let archive = try Archive(url: url, accessMode: .read)
        var entries: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            entries[entry.path] = data
        }
        return entries
    }

    @Test func renewPutsToTheTemplatedLinkWithTheEndAndFetchesTheRenewedLicence() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let (_, license) = try Self.license(statusURL: server.url("status"))
        let (renewed, _) = try Self.license(statusURL: server.url("status"), updated: "2026-07-01T00:00:00Z", end: "2030-01-31T12:00:00Z")
        let links = [LCPVectorMaker.link("renew", server.url("renew{?end,id,name}"), type: "application/vnd.readium.license.status.v1.0+json", templated: true),
                     LCPVectorMaker.link("license", server.url("license"))]
        server.answer("GET", "status", with: .init(body: Self.status("active", server: server, links: links)))
        server.answer("PUT", "renew", with: .init(body: Self.status("active", server: server, licenseUpdated: "2026-07-01T00:00:00Z", links: links)))
        server.answer("GET", "license", with: .init(body: renewed))
        let outcome = try service().renew(license, source: "book.lcpa", end: LCPDate.parse("2030-01-31T12:00:00Z"))
        guard case .renewed(_, let newer) = outcome else { Issue.record("\(outcome)"); return }
        #expect(newer == renewed)
        let put = try #require(server.requests.first { $0.method == "PUT" })
        #expect(put.path == "/renew" && put.query("end") == "2030-01-31T12:00:00Z" && put.query("id") == "device-1")
    }

    @Test func aRefusedRenewalSaysTheServersProblemDetailsAndAWebPageLinkIsGivenBack() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let (_, license) = try Self.license(statusURL: server.url("status"))
        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(
            licenseID: "status-test-licence", status: "active", licenseUpdated: "2026-06-01T00:00:00Z", statusUpdated: "2026-06-01T00:00:00Z",
            links: [LCPVectorMaker.link("renew", server.url("renew"))], potentialEnd: "2026-09-01T00:00:00Z")))
        server.answer("PUT", "renew", with: .init(status: 403, contentType: "application/problem+json",
                                                  "{\"type\":\"http://readium.org/license-status-document/error/renew\",\"title\":\"Renew failed\",\"detail\":\"the loan may not exceed 90 days\"}"))
        let error = #expect(throws: LCPNetworkError.self) { try service().renew(license, source: "book.lcpa", end: nil) }
        #expect(error?.code == .lcpRenewFailed)
        #expect(error?.message.contains("the loan may not exceed 90 days") == true && error?.message.contains("2026-09-01T00:00:00Z") == true, "\(error?.message ?? "")")

        server.answer("GET", "status", with: .init(body: Self.status("active", server: server, links: [LCPVectorMaker.link("renew", "https://library.example/renew/abc", type: "text/html")])))
        guard case .webPage(let url) = try service().renew(license, source: "book.lcpa", end: nil) else { Issue.record("no web page"); return }
        #expect(url == "https://library.example/renew/abc")
        #expect(server.requests.filter { $0.method == "PUT" }.count == 1, "the web page was fetched: \(server.requests)")
    }

    @Test func returnPutsToItsLinkAndARefusalIsAnError() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let (_, license) = try Self.license(statusURL: server.url("status"))
        let links = [LCPVectorMaker.link("return", server.url("return{?id,name}"), templated: true)]
        server.answer("GET", "status", with: .init(body: Self.status("active", server: server, links: links)))
        server.answer("PUT", "return", with: .init(body: Self.status("returned", server: server)))
        let (status, _) = try service().returnLoan(license, source: "book.lcpa")
        #expect(status.status == .returned)
        #expect(server.requests.last?.method == "PUT" && server.requests.last?.query("name") == "raudio")

        server.answer("PUT", "return", with: .init(status: 400, "{\"title\":\"Return failed\",\"detail\":\"already returned\"}"))
        let error = #expect(throws: LCPNetworkError.self) { try service().returnLoan(license, source: "book.lcpa") }
        #expect(error?.code == .lcpReturnFailed && error?.message.contains("already returned") == true, "\(error?.message ?? "")")

        // Offline, or with the server gone: lcp-status-unreachable, nothing fetched offline.
        let count = server.requests.count
        let offline = #expect(throws: LCPNetworkError.self) { try service(LCPNetworkPolicy(fetchesAllowed: false)).returnLoan(license, source: "book.lcpa") }
        #expect(offline?.code == .lcpNetwork && server.requests.count == count)
        server.stop()
        let gone = #expect(throws: LCPNetworkError.self) { try service().returnLoan(license, source: "book.lcpa") }
        #expect(gone?.code == .lcpNetwork)
    }

    @Test func templatesExpandQueryAndSimpleExpressions() {
        #expect(URITemplate.expand("https://h/l/1/renew{?end,id,name}", ["id": "a b", "name": "raudio"]) == "https://h/l/1/renew?id=a%20b&name=raudio")
        #expect(URITemplate.expand("https://h/r?x=1{&id}", ["id": "d"]) == "https://h/r?x=1&id=d")
        #expect(URITemplate.expand("https://h/{id}/register", ["id": "d/1"]) == "https://h/d%2F1/register")
        #expect(URITemplate.expand("https://h/plain", [:]) == "https://h/plain")
    }

    @Test func theCRLIsServedFromItsCacheAndRefreshedInTheBackgroundWhenStale() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let der = Data((0..<300).map { UInt8($0 % 256) })
        server.answer("GET", "crl", with: .init(contentType: "application/pkix-crl", body: der))
        let folder = try TemporaryDirectory()
        let cache = folder.url.appendingPathComponent("lcp/crl.pem")
        let offline = LCPCRLService(client: CurlHTTPClient(), policy: LCPNetworkPolicy(fetchesAllowed: false), cacheFile: cache, url: server.url("crl"))
        #expect(offline.currentCRL() == "")
        #expect(server.requests.isEmpty)

        let service = LCPCRLService(client: CurlHTTPClient(), policy: LCPNetworkPolicy(statusTimeout: 5), cacheFile: cache, url: server.url("crl"))
        let done = DispatchSemaphore(value: 0)
        let renewed = Locked(false)
        // Nothing cached yet: the answer is empty at once, the refresh runs beside it.
        #expect(service.currentCRL { value in renewed.withLock { $0 = value }; done.signal() } == "")
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(renewed.withLock { $0 })
        let pem = service.currentCRL()
        #expect(pem.hasPrefix("-----BEGIN X509 CRL-----\n") && pem.contains(String(der.base64EncodedString().prefix(64))))
        // Fresh now: not fetched again.
        #expect(server.requests.count == 1)
    }
}
