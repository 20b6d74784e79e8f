// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing
import ZIPFoundation

/// `raudio lcp acquire`, `renew` and `return` against a server of the test's own on 127.0.0.1.
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct LCPLoanCommandTests {
    /// LCP fetches on (ProcessRunner turns them off by default): the servers here are the test's own.
    static let online = ["RAUDIO_LCP_OFFLINE": "0"]
    static let track = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    static func licence(id: String = "loan-test", links: [JSONValue], updated: String = "2026-06-01T00:00:00Z", end: String? = nil) throws -> Data {
        var spec = LCPVectorMaker.License(issued: "2026-06-01T00:00:00Z")
        spec.id = id
        spec.updated = updated
        spec.end = end
        spec.links = links
        return try LCPVectorMaker(provider: .test2026).license(spec)
    }

    static func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    static func licenceEntry(of url: URL) throws -> Data? {
        let archive = try Archive(url: url, accessMode: .read)
        guard let entry = archive["license.lcpl"] else { return nil }
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        return data
    }

    @Test func acquireDownloadsChecksAndPutsTheLicenceIn() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let publication = try LCPVectorMaker.audiobookPackage(license: nil, contentKey: Data(count: 32), resources: [.init(href: "t.mp3", type: "audio/mpeg", data: Self.track)])
        server.answer("GET", "publication", with: .init(contentType: "application/audiobook+lcp", body: publication))
        let hash = SHA256.hash(data: publication).map { String(format: "%02x", $0) }.joined()
        let folder = try TemporaryDirectory()
        let licence = try Self.licence(links: [LCPVectorMaker.link("publication", server.url("publication"), type: "application/audiobook+lcp", length: publication.count, hash: hash)])
        try licence.write(to: folder.url.appendingPathComponent("loan.lcpl"))
        let output = folder.url.appendingPathComponent("book.lcpa")
        let result = try ProcessRunner.raudio(["lcp", "acquire", folder.path("loan.lcpl"), output.path], environment: Self.online, timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let events = Self.events(result.standardOutput)
        #expect(events.contains { $0["type"] as? String == "progress" }, "\(result.standardOutput)")
        #expect(events.last?["type"] as? String == "acquired" && events.last?["path"] as? String == output.path, "\(result.standardOutput)")
        #expect(try Self.licenceEntry(of: output) == licence)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["book.lcpa", "loan.lcpl"])
    }

    @Test(arguments: ["hash", "length"])
    func acquireRefusesAPublicationThatIsNotTheOneTheLicenceDescribesLeavingNothing(wrong: String) throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let publication = try LCPVectorMaker.audiobookPackage(license: nil, contentKey: Data(count: 32), resources: [.init(href: "t.mp3", type: "audio/mpeg", data: Self.track)])
        server.answer("GET", "publication", with: .init(contentType: "application/audiobook+lcp", body: publication))
        let goodHash = Data(SHA256.hash(data: publication)).base64EncodedString()
        let link = wrong == "hash"
            ? LCPVectorMaker.link("publication", server.url("publication"), length: publication.count, hash: String(repeating: "0", count: 64))
            : LCPVectorMaker.link("publication", server.url("publication"), length: publication.count + 1, hash: goodHash)
        let folder = try TemporaryDirectory()
        try Self.licence(links: [link]).write(to: folder.url.appendingPathComponent("loan.lcpl"))
        let result = try ProcessRunner.raudio(["lcp", "acquire", folder.path("loan.lcpl"), folder.path("book.lcpa")], environment: Self.online, timeout: 60)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(Self.events(result.standardOutput).last?["code"] as? String == "lcp-publication-mismatch", "\(result.standardOutput)")
        #expect(result.standardError.contains(wrong == "hash" ? "SHA-256" : "bytes"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["loan.lcpl"], "a partial file was left")
    }

    /// A package whose licence's status document is served by `server` with `links`.
    static func book(in folder: TemporaryDirectory, server: ScriptedHTTPServer) throws -> (URL, Data) {
        let licence = try Self.licence(links: [LCPVectorMaker.link("status", server.url("status"))])
        let book = folder.url.appendingPathComponent("book.lcpa")
        try LCPVectorMaker.audiobookPackage(license: licence, contentKey: Data(count: 32), resources: [.init(href: "t.mp3", type: "audio/mpeg", data: Self.track)]).write(to: book)
        return (book, licence)
    }

    @Test func renewWritesTheRenewedLicenceIntoTheBook() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (book, _) = try Self.book(in: folder, server: server)
        let renewed = try Self.licence(links: [LCPVectorMaker.link("status", server.url("status"))], updated: "2026-07-01T00:00:00Z", end: "2030-01-31T12:00:00Z")
        let links = [LCPVectorMaker.link("renew", server.url("renew{?end,id,name}"), templated: true), LCPVectorMaker.link("license", server.url("license"))]
        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(licenseID: "loan-test", status: "active", licenseUpdated: "2026-06-01T00:00:00Z", statusUpdated: "2026-06-01T00:00:00Z", links: links)))
        server.answer("PUT", "renew", with: .init(body: LCPVectorMaker.statusDocument(licenseID: "loan-test", status: "active", licenseUpdated: "2026-07-01T00:00:00Z", statusUpdated: "2026-07-01T00:00:00Z", links: links)))
        server.answer("GET", "license", with: .init(body: renewed))
        let result = try ProcessRunner.raudio(["lcp", "renew", book.path, "--end", "2030-01-31T12:00:00Z"], environment: Self.online, timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.events(result.standardOutput).last?["end"] as? String == "2030-01-31T12:00:00Z", "\(result.standardOutput)")
        #expect(try Self.licenceEntry(of: book) == renewed)
        #expect(server.requests.first { $0.method == "PUT" }?.query("end") == "2030-01-31T12:00:00Z")
    }

    @Test func aRefusedReturnExits65WithTheServersReasonAndLeavesTheBookAsItWas() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (book, licence) = try Self.book(in: folder, server: server)
        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(licenseID: "loan-test", status: "active", licenseUpdated: "2026-06-01T00:00:00Z", statusUpdated: "2026-06-01T00:00:00Z",
                                                                                   links: [LCPVectorMaker.link("return", server.url("return"))])))
        server.answer("PUT", "return", with: .init(status: 403, contentType: "application/problem+json", "{\"title\":\"Return failed\",\"detail\":\"this loan is already over\"}"))
        let result = try ProcessRunner.raudio(["lcp", "return", book.path], environment: Self.online, timeout: 60)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("this loan is already over") && result.standardError.contains(book.path), "\(result.standardError)")
        #expect(Self.events(result.standardOutput).last?["code"] as? String == "lcp-return-failed", "\(result.standardOutput)")
        #expect(try Self.licenceEntry(of: book) == licence)
    }

    @Test func anUnreachableStatusServerExits69() throws {
        let folder = try TemporaryDirectory()
        let licence = try Self.licence(links: [LCPVectorMaker.link("status", "http://127.0.0.1:\(try LoopbackPort.free())/status")])
        try licence.write(to: folder.url.appendingPathComponent("loan.lcpl"))
        let result = try ProcessRunner.raudio(["lcp", "renew", folder.path("loan.lcpl")], environment: Self.online, timeout: 60)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(Self.events(result.standardOutput).last?["code"] as? String == "lcp-network", "\(result.standardOutput)")
    }

    /// A book with a real MP3 track (from the corpus) whose licence links `links`.
    static func playableBook(in folder: TemporaryDirectory, links: [JSONValue]) throws -> (book: URL, passphraseFile: String) {
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "play-test"
        spec.links = links
        let mp3 = try Data(contentsOf: Corpus.file("audio/mp3-speech/w3c-epub-tests__mol-navigation__ch1.mp3"))
        let book = folder.url.appendingPathComponent("book.lcpa")
        try LCPVectorMaker.audiobookPackage(license: try LCPVectorMaker().license(spec), contentKey: spec.contentKey,
                                            resources: [.init(href: "audio/ch1.mp3", type: "audio/mpeg", data: mp3)]).write(to: book)
        let passphraseFile = folder.path("passphrase.txt")
        try (spec.passphrase + "\n").write(toFile: passphraseFile, atomically: true, encoding: .utf8)
        return (book, passphraseFile)
    }

    /// Opening a book checks its status document: revoked is refused with the date; a status server that does not
    /// answer is a warning and the book plays; the device registers once.
    @Test func playChecksTheStatusRefusingARevokedLoanAndPlayingWhenTheServerIsAway() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (book, passphrase) = try Self.playableBook(in: folder, links: [LCPVectorMaker.link("status", server.url("status"))])
        let register = [LCPVectorMaker.link("register", server.url("register{?id,name}"), templated: true)]
        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(licenseID: "play-test", status: "ready", licenseUpdated: "2026-06-01T00:00:00Z",
                                                                                   statusUpdated: "2026-06-01T00:00:00Z", links: register)))
        server.answer("POST", "register", with: .init("{}"))
        let state = folder.url.appendingPathComponent("state").path
        let environment = Self.online.merging(["RAUDIO_STATE_DIR": state]) { $1 }
        let played = try ProcessRunner.raudio(["play", book.path, "--passphrase-file", passphrase, "--output", "null", "--duration", "1"], environment: environment, timeout: 120)
        #expect(played.status == 0, "\(played.standardError)")
        let again = try ProcessRunner.raudio(["play", book.path, "--passphrase-file", passphrase, "--output", "null", "--duration", "1"], environment: environment, timeout: 120)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(server.requests.filter { $0.path == "/register" }.count == 1, "registered once: \(server.requests)")

        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(licenseID: "play-test", status: "revoked", licenseUpdated: "2026-06-01T00:00:00Z",
                                                                                   statusUpdated: "2026-07-14T10:00:00Z")))
        let revoked = try ProcessRunner.raudio(["play", book.path, "--passphrase-file", passphrase, "--output", "null"], environment: environment, timeout: 120)
        #expect(revoked.status == 65, "\(revoked.standardError)")
        #expect(revoked.standardError.contains("revoked on 2026-07-14T10:00:00Z"), "\(revoked.standardError)")
        #expect(revoked.standardOutput.contains("lcp-license-revoked"), "\(revoked.standardOutput)")

        server.stop()
        let away = try ProcessRunner.raudio(["play", book.path, "--passphrase-file", passphrase, "--output", "null", "--duration", "1"], environment: environment, timeout: 120)
        #expect(away.status == 0, "\(away.standardError)")
        #expect(away.standardError.contains("status was not checked"), "\(away.standardError)")
    }

    /// The status check's warnings are `warning` events (besides their line on stderr): offline in `play` and
    /// `speak`, and a newer licence used and written back in `play`.
    @Test func statusWarningsAreWarningEvents() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (book, passphrase) = try Self.playableBook(in: folder, links: [LCPVectorMaker.link("status", server.url("status"))])
        func warnings(_ output: String, _ code: String) -> [[String: Any]] {
            Self.events(output).filter { $0["type"] as? String == "warning" && $0["code"] as? String == code }
        }
        let environment = ["RAUDIO_STATE_DIR": folder.path("state")]
        let offline = try ProcessRunner.raudio(["play", book.path, "--passphrase-file", passphrase, "--output", "null", "--duration", "1"],
                                               environment: environment, timeout: 120)
        #expect(offline.status == 0, "\(offline.standardError)")
        let offlineWarning = warnings(offline.standardOutput, "lcp-status-offline")
        #expect(offlineWarning.count == 1 && (offlineWarning.first?["message"] as? String)?.contains("RAUDIO_LCP_OFFLINE") == true, "\(offline.standardOutput)")
        #expect(offline.standardError.contains("status was not checked"), "\(offline.standardError)")

        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "speak-status-test"
        spec.links = [LCPVectorMaker.link("status", server.url("status"))]
        let epub = try LCPVectorMaker.epubPackage(from: URL(fileURLWithPath: SpeakCommandTests.sampleEPUB),
                                                  license: try LCPVectorMaker().license(spec), contentKey: spec.contentKey)
        try epub.write(to: folder.url.appendingPathComponent("book.epub"))
        let spoken = try ProcessRunner.raudio(["speak", folder.path("book.epub"), "--passphrase-file", passphrase, "--output", "null", "--duration", "2", "--no-state"],
                                              environment: environment, timeout: 180)
        #expect(spoken.status == 0, "\(spoken.standardError)")
        #expect(warnings(spoken.standardOutput, "lcp-status-offline").count == 1, "\(spoken.standardOutput.prefix(2000))")

        var newer = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        newer.id = "play-test"
        newer.updated = "2026-07-01T00:00:00Z"
        newer.end = "2036-01-01T00:00:00Z"
        newer.links = [LCPVectorMaker.link("status", server.url("status"))]
        server.answer("GET", "status", with: .init(body: LCPVectorMaker.statusDocument(
            licenseID: "play-test", status: "active", licenseUpdated: "2026-07-01T00:00:00Z", statusUpdated: "2026-07-01T00:00:00Z",
            links: [LCPVectorMaker.link("license", server.url("license"))])))
        server.answer("GET", "license", with: .init(body: try LCPVectorMaker().license(newer)))
        // Through a licence file beside the package (`book.lcpl`), which the newer licence is written over: a
        // package rewritten while it is open does not play on (see the report of lcp-finish).
        var old = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        old.id = "play-test"
        old.links = [LCPVectorMaker.link("status", server.url("status"))]
        try LCPVectorMaker().license(old).write(to: folder.url.appendingPathComponent("book.lcpl"))
        let online = environment.merging(Self.online) { $1 }
        let updated = try ProcessRunner.raudio(["play", folder.path("book.lcpl"), "--passphrase-file", passphrase, "--output", "null", "--duration", "1"],
                                               environment: online, timeout: 120)
        #expect(updated.status == 0, "\(updated.standardError)")
        let updatedWarning = warnings(updated.standardOutput, "lcp-license-updated")
        #expect(updatedWarning.count == 1 && (updatedWarning.first?["message"] as? String)?.contains("2036-01-01") == true, "\(updated.standardOutput)")
    }

    /// `raudio play LOAN.lcpl` whose publication is on a web server streams it: every request after the first is a range.
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
    func aLicenceWhosePublicationIsOnAServerPlaysWithRangeRequests() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (book, passphrase) = try Self.playableBook(in: folder, links: [])
        try FileManager.default.moveItem(at: book, to: server.documentRoot.appendingPathComponent("remote.lcpa"))
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "play-test"
        spec.links = [LCPVectorMaker.link("publication", server.url("remote.lcpa"), type: "application/audiobook+lcp")]
        try LCPVectorMaker().license(spec).write(to: folder.url.appendingPathComponent("loan.lcpl"))
        let played = try ProcessRunner.raudio(["play", folder.path("loan.lcpl"), "--passphrase-file", passphrase, "--output", "null", "--duration", "2"],
                                              environment: Self.online, timeout: 120)
        #expect(played.status == 0, "\(played.standardError)")
        let requests = server.accessLog.filter { $0.contains("/remote.lcpa") }
        #expect(requests.count > 1 && requests.dropFirst().allSatisfy { $0.contains(" 206 ") }, "\(requests)")
        // Offline, the publication is not fetched: the licence is refused as one whose publication is elsewhere.
        let before = server.accessLog.count
        let offline = try ProcessRunner.raudio(["play", folder.path("loan.lcpl"), "--passphrase-file", passphrase, "--output", "null"], timeout: 60)
        #expect(offline.status != 0 && server.accessLog.count == before, "\(offline.standardError)")
    }
}
