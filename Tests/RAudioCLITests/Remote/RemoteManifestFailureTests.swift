// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A remote manifest that cannot be had: a clear error naming the URL and the cause, and exit 69
/// (service unavailable) for network failures, 66 for a manifest the server does not have.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
struct RemoteManifestFailureTests {
    @Test(arguments: ["info", "play"])
    func aRefusedConnectionExitsWith69NamingTheURL(command: String) throws {
        let url = "http://127.0.0.1:\(try LoopbackPort.free())/book/manifest.json"
        let arguments = command == "play" ? ["play", url, "--output", "null"] : ["info", url]
        let result = try ProcessRunner.raudio(arguments, environment: ["RAUDIO_RETRY_DELAYS": "0.05"], timeout: 30)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("cannot connect"), "\(result.standardError)")
    }

    @Test func aRedirectLoopExitsWith69() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let url = server.url("redirect-loop.json")
        let result = try ProcessRunner.raudio(["info", url], timeout: 30)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("redirect"), "\(result.standardError)")
    }

    @Test func aServerWhoseCertificateNoCAVouchesForExitsWith69() throws {
        let server = try NginxServer(selfSignedTLS: true)
        defer { server.stop() }
        try server.add(Corpus.projectRoot.appendingPathComponent("samples/gull-rock/manifest.json"), as: "book/manifest.json")
        let url = server.url("book/manifest.json")
        #expect(url.hasPrefix("https://"))
        let result = try ProcessRunner.raudio(["info", url], timeout: 30)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("TLS"), "\(result.standardError)")
    }

    @Test func aHostThatDoesNotResolveExitsWith69() throws {
        let url = "http://raudio-test-no-such-host.invalid/book/manifest.json"
        let result = try ProcessRunner.raudio(["info", url], timeout: 30)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("does not resolve"), "\(result.standardError)")
    }

    @Test func aMissingManifestExitsWith66() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let url = server.url("nothing/manifest.json")
        let result = try ProcessRunner.raudio(["info", url], timeout: 30)
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("404"), "\(result.standardError)")
    }

    @Test func aRemoteManifestCannotReachLocalFiles() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let secret = try TemporaryDirectory()
        try "not audio".write(toFile: secret.path("secret.mp3"), atomically: true, encoding: .utf8)
        let hrefs = ["file://\(secret.path("secret.mp3"))", "../secret.mp3"]
        try server.write(try RemoteBookFixture.manifest(hrefs: hrefs), as: "book/manifest.json")
        let result = try ProcessRunner.raudio(["play", server.url("book/manifest.json"), "--output", "null"], timeout: 30)
        let warnings = RemoteBookFixture.events(result, type: "warning") + RemoteBookFixture.events(result, type: "error")
        #expect(warnings.filter { $0["code"]?.stringValue == "track-refused" }.count == 2, "\(result.standardOutput)\n\(result.standardError)")
        #expect(!result.standardError.contains("not audio"))
    }

    @Test func aHugeManifestIsRefused() throws {
        let server = try NginxServer()
        defer { server.stop() }
        try String(repeating: " ", count: 9 * 1024 * 1024).write(toFile: server.documentRoot.appendingPathComponent("huge.json").path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.raudio(["info", server.url("huge.json")], timeout: 30)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("too large"), "\(result.standardError)")
    }
}
