// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import ReadiumShared

/// What raudio reads of a response's headers, and what each status means for a remote resource.
@Suite struct HTTPResponseHeadTests {
    @Test(arguments: [
        ("bytes 0-65535/2444669", UInt64?(0), UInt64?(65535), UInt64?(2444669)),
        ("bytes 100-199/*", UInt64?(100), UInt64?(199), UInt64?.none),
        ("bytes */1234", UInt64?.none, UInt64?.none, UInt64?(1234)),
    ])
    func contentRangeIsRead(value: String, first: UInt64?, last: UInt64?, total: UInt64?) throws {
        let head = HTTPResponseHead(status: 206, url: "http://x/a.mp3", headers: ["content-range": value])
        let range = try #require(head.contentRange)
        #expect(range.first == first && range.last == last && range.total == total)
    }

    @Test(arguments: ["bytes 5-1/10", "items 0-1/10", "bytes 0-/10", ""])
    func malformedContentRangesAreIgnored(value: String) {
        #expect(HTTPResponseHead(status: 206, url: "u", headers: ["content-range": value]).contentRange == nil)
    }

    @Test func rangeHeadersAskForInclusiveBounds() {
        #expect(HTTPRequest(url: "u", range: 10..<20).rangeHeaderValue == "bytes=10-19")
        #expect(HTTPRequest(url: "u", range: 10..<UInt64.max).rangeHeaderValue == "bytes=10-")
        #expect(HTTPRequest(url: "u").rangeHeaderValue == nil)
    }

    @Test(arguments: [(200, "success"), (206, "success"), (404, "not-found"), (410, "not-found"), (403, "remote-unavailable"),
                      (401, "remote-unavailable"), (503, "retry"), (500, "retry"), (429, "retry"), (408, "retry"), (418, "remote-unavailable")])
    func statusesMeanSuccessRetryOrFailure(status: Int, meaning: String) {
        let verdict = RemoteResponse(head: HTTPResponseHead(status: status, url: "u"), href: "http://x/a.mp3")
        switch verdict {
        case .success: #expect(meaning == "success", "\(status)")
        case .transientFailure: #expect(meaning == "retry", "\(status)")
        case .failure(let error): #expect(error.code.rawValue == meaning && error.href == "http://x/a.mp3", "\(status): \(error)")
        }
    }
}
