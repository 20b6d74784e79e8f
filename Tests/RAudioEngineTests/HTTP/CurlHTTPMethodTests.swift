// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioEngine

/// libcurl sends the method asked for (LCP's register is a POST, renew and return PUTs), with an empty body,
/// and a reused handle goes back to GET afterwards.
@Suite struct CurlHTTPMethodTests {
    @Test func putAndPostArriveAsSuchAndTheNextGetIsAGet() throws {
        let server = try ScriptedHTTPServer()
        defer { server.stop() }
        server.answer("PUT", "renew", with: .init("{\"status\":\"active\"}"))
        server.answer("POST", "register", with: .init("{\"status\":\"ready\"}"))
        server.answer("GET", "status", with: .init("{}"))
        let client = CurlHTTPClient()
        func fetch(_ request: HTTPRequest) throws -> (Int, String) {
            var body = Data()
            let head = try client.perform(request, shouldStop: { false }) { _, chunk in
                body.append(contentsOf: chunk)
                return true
            }
            return (head.status, String(decoding: body, as: UTF8.self))
        }
        #expect(try fetch(HTTPRequest(url: server.url("renew?end=2030-01-01T00%3A00%3A00Z"), method: .put)) == (200, "{\"status\":\"active\"}"))
        #expect(try fetch(HTTPRequest(url: server.url("register?id=abc&name=raudio"), method: .post)) == (200, "{\"status\":\"ready\"}"))
        #expect(try fetch(HTTPRequest(url: server.url("status"))) == (200, "{}"))
        #expect(server.requests.map(\.method) == ["PUT", "POST", "GET"])
        #expect(server.requests.first?.query("end") == "2030-01-01T00:00:00Z")
        #expect(server.requests.dropFirst().first?.query("name") == "raudio")
    }
}
