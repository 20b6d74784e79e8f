// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A remote page, manifest or track whose server redirects to another service of this machine (issue 51: a
/// page on nginx redirecting to another loopback port had that service's answer read aloud): the answer
/// is not used, the error names the redirect (`RedirectRule`). A redirect within the server asked for
/// (`/moved/`) is still followed.
@Suite(.serialized) struct SecurityRedirectTests {
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
    func aRedirectToAnotherLoopbackServiceIsNotFollowed() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let service = try CountingListener()
        try Data("A page of the server itself. It is read aloud.\n".utf8).write(to: server.documentRoot.appendingPathComponent("page.txt"))
        for command in ["text", "info"] {
            let redirected = try ProcessRunner.raudio([command, server.url("to-port/\(service.port)/page.txt")], timeout: 60)
            #expect(!redirected.standardOutput.contains(CountingListener.secret), "\(command): \(redirected.standardOutput.prefix(300))")
            #expect(redirected.status == 69, "\(command): exit \(redirected.status): \(redirected.standardError.prefix(300))")
            #expect(redirected.standardError.contains("redirects to http://127.0.0.1:\(service.port)/page.txt"), "\(command): \(redirected.standardError.prefix(400))")
        }
        let moved = try ProcessRunner.raudio(["text", server.url("moved/page.txt")], timeout: 60)
        #expect(moved.status == 0 && moved.standardOutput.contains("read aloud"), "a redirect within the server: \(moved.standardError.prefix(300))")
    }

    @Test func theRuleRefusesOnlyAnotherLoopbackService() {
        #expect(RedirectRule.refusal(asked: "http://127.0.0.1:8080/a", answered: "http://127.0.0.1:8080/b") == nil)
        #expect(RedirectRule.refusal(asked: "http://localhost:8080/a", answered: "http://127.0.0.1:8080/b") == nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "https://cdn.example.net/b") == nil)
        #expect(RedirectRule.refusal(asked: "http://127.0.0.1:8080/a", answered: "http://127.0.0.1:9090/b") != nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "http://127.0.0.1/admin") != nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "http://[::1]:631/") != nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "http://localhost./") != nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "http://2130706433/") != nil)
        #expect(RedirectRule.refusal(asked: "https://example.com/a", answered: "http://0.0.0.0:22/") != nil)
    }
}
