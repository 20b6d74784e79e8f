// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The read-along page honours an LCP licence's `copy` right as Readium's navigators do: a copy out of the page is
/// asked of raudio (`POST /raudio/copy`), which counts its characters against the right in the listening state
/// (the count `raudio text` spends): allowed whole when they fit, refused whole (nothing counted) when they do
/// not, with the reason. Another site's page cannot spend the right.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct SecurityLCPPageCopyTests {
    static func post(_ text: String, port: Int, headers: [String] = []) throws -> SecurityHTTP.Answer {
        var request = "POST /raudio/copy HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: text/plain; charset=utf-8\r\n"
        request += "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n"
        for header in headers { request += header + "\r\n" }
        return try SecurityHTTP.send(request + "\r\n" + text, port: port)
    }

    static func object(_ answer: SecurityHTTP.Answer) throws -> JSONObject {
        try #require(try JSONParser.parse(Data(answer.body)).objectValue, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test func copiesOutOfThePageCountAgainstTheCopyRight() throws {
        let folder = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": folder.path("state"), "RAUDIO_LCP_OFFLINE": "1"]
        let (book, passphrase) = try LCPCopyRightTests.book(copy: 50, in: folder)
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", book, "--passphrase-file", passphrase, "--output", "null", "--realtime", "--json",
                                          "--no-mpris", "--web"],
                                         environment: environment)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 30) { IPCTests.type($0, "listening") }, "\(running.standardError)")
        let listening = try PlayCommandTests.object(try #require(running.outputLines.first { IPCTests.type($0, "listening") }))
        let port = try IPCTests.port(of: try #require(listening["address"]?.stringValue))

        let right = try Self.object(try SecurityHTTP.get("/raudio/copy", port: port))
        #expect(right["limit"]?.intValue == 50 && right["remaining"]?.intValue == 50, "\(right)")

        // 30 characters (ten of them an e and a combining accent: one character each, as `raudio text` counts).
        let thirty = String(repeating: "e\u{301}", count: 10) + String(repeating: "a", count: 20)
        let first = try Self.object(try Self.post(thirty, port: port))
        #expect(first["allowed"]?.boolValue == true && first["characters"]?.intValue == 30 && first["remaining"]?.intValue == 20, "\(first)")

        // More than is left: refused whole, nothing counted, and the page is told why.
        let tooMany = try Self.object(try Self.post(String(repeating: "b", count: 21), port: port))
        #expect(tooMany["allowed"]?.boolValue == false && tooMany["remaining"]?.intValue == 20, "\(tooMany)")
        #expect(tooMany["reason"]?.stringValue?.contains("20 more characters") == true, "\(tooMany)")

        // Another site's page cannot spend it.
        let forged = try Self.post("cc", port: port, headers: ["Origin: http://evil.example"])
        #expect(forged.status == 403, "\(forged.status)")
        #expect(try Self.object(try SecurityHTTP.get("/raudio/copy", port: port))["remaining"]?.intValue == 20)

        let rest = try Self.object(try Self.post(String(repeating: "f", count: 20), port: port))
        #expect(rest["allowed"]?.boolValue == true && rest["remaining"]?.intValue == 0, "\(rest)")
        let spent = try Self.object(try Self.post("g", port: port))
        #expect(spent["allowed"]?.boolValue == false && spent["reason"]?.stringValue?.contains("have been copied") == true, "\(spent)")

        // The page and `raudio text` spend one right: it is spent for `raudio text` too.
        let text = try ProcessRunner.raudio(["text", book, "--passphrase-file", passphrase], environment: environment, timeout: 120)
        #expect(text.status == 65 && text.standardOutput.isEmpty, "\(text.standardError)")
    }

    /// A book whose licence does not limit copying: the page is told so and copies are not counted.
    @Test func withoutACopyRightNothingIsCounted() throws {
        let folder = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": folder.path("state"), "RAUDIO_LCP_OFFLINE": "1"]
        let (book, passphrase) = try LCPCopyRightTests.book(copy: nil, in: folder)
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", book, "--passphrase-file", passphrase, "--output", "null", "--realtime", "--json",
                                          "--no-mpris", "--web"],
                                         environment: environment)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 30) { IPCTests.type($0, "listening") }, "\(running.standardError)")
        let listening = try PlayCommandTests.object(try #require(running.outputLines.first { IPCTests.type($0, "listening") }))
        let port = try IPCTests.port(of: try #require(listening["address"]?.stringValue))
        let right = try Self.object(try SecurityHTTP.get("/raudio/copy", port: port))
        #expect(right["limit"] == .null, "\(right)")
        let copy = try Self.object(try Self.post("anything", port: port))
        #expect(copy["allowed"]?.boolValue == true && copy["limit"] == .null, "\(copy)")
    }
}
