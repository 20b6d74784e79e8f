// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// `--web` serves the publication's declared resources and nothing else, to raudio's own page only,
/// streamed: the forged requests and the memory exhaustion of issue 35, made with real sockets
/// against the real binary.
@Suite(.serialized) struct SecurityPageServerTests {
    /// The sample audiobook copied to a temporary folder, with two more declared resources: `data.bin`
    /// (known bytes, for ranges) and `big.bin` (a sparse file of `bigSize` bytes, no disk used).
    final class Book {
        let folder: URL
        static let bigSize: UInt64 = 512 << 20
        static let dataBytes: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-security-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let sample = Corpus.projectRoot.appendingPathComponent("samples/gull-rock")
            try FileManager.default.copyItem(at: sample.appendingPathComponent("01-the-storm.mp3"), to: folder.appendingPathComponent("01-the-storm.mp3"))
            try Data(Self.dataBytes).write(to: folder.appendingPathComponent("data.bin"))
            let big = open(folder.appendingPathComponent("big.bin").path, O_CREAT | O_WRONLY, 0o600)
            try #require(big >= 0 && ftruncate(big, off_t(Self.bigSize)) == 0)
            close(big)
            // Files beside the manifest that it does not declare.
            try Data("undeclared".utf8).write(to: folder.appendingPathComponent("private.txt"))
            let json = """
                {"@context": "https://readium.org/webpub-manifest/context.jsonld",
                 "metadata": {"@type": "http://schema.org/Audiobook", "title": "Security fixture", "identifier": "urn:raudio:security-fixture"},
                 "readingOrder": [{"href": "01-the-storm.mp3", "type": "audio/mpeg", "duration": 24.465}],
                 "resources": [{"href": "data.bin", "type": "application/octet-stream"},
                               {"href": "big.bin", "type": "application/octet-stream"}]}
                """
            try Data(json.utf8).write(to: Self.manifest(in: folder))
        }

        var manifestPath: String { Self.manifest(in: folder).path }

        private static func manifest(in folder: URL) -> URL { folder.appendingPathComponent("manifest.json") }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// raudio playing `book` (null output, real time) with `--web`; returns it and the page's port.
    static func serve(_ path: String, extra: [String] = [], environment: [String: String] = [:]) throws -> (RunningProcess, Int) {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", path, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris", "--web"] + extra,
                                         environment: environment)
        #expect(running.waitForLine(timeout: 20) { IPCTests.type($0, "listening") }, "\(running.standardError)")
        let listening = try PlayCommandTests.object(try #require(running.outputLines.first { IPCTests.type($0, "listening") }))
        return (running, try IPCTests.port(of: try #require(listening["address"]?.stringValue)))
    }

    @Test func aURLInTheRequestIsNeverFetched() throws {
        let book = try Book()
        let target = try CountingListener()
        let (running, port) = try Self.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let forged = ["http://127.0.0.1:\(target.port)/secret.txt", "http:%2F%2F127.0.0.1:\(target.port)%2Fsecret.txt",
                      "http%3A%2F%2F127.0.0.1%3A\(target.port)%2Fsecret.txt", "https://127.0.0.1:\(target.port)/secret.txt",
                      "HTTP://127.0.0.1:\(target.port)/", "//127.0.0.1:\(target.port)/secret.txt", "private.txt", "../private.txt"]
        for href in forged {
            let answer = try SecurityHTTP.get("/publication/\(href)", port: port)
            #expect(answer.status == 404, "\(href): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains(CountingListener.secret), "\(href)")
        }
        #expect(target.connections == 0, "raudio connected to the URL a request named")
        #expect(try SecurityHTTP.get("/publication/data.bin", port: port).status == 200, "a declared resource is still served")
    }

    @Test func aRemoteResourceTheManifestDeclaresIsRedirectedToNotFetched() throws {
        let target = try CountingListener()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-security-remote-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3")
        try FileManager.default.copyItem(at: sample, to: folder.appendingPathComponent("01-the-storm.mp3"))
        let declared = "http://127.0.0.1:\(target.port)/declared.jpg"
        let manifest = """
            {"@context": "https://readium.org/webpub-manifest/context.jsonld",
             "metadata": {"@type": "http://schema.org/Audiobook", "title": "Remote cover"},
             "readingOrder": [{"href": "01-the-storm.mp3", "type": "audio/mpeg", "duration": 24.465}],
             "resources": [{"href": "\(declared)", "type": "image/jpeg", "rel": "cover"}]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let (running, port) = try Self.serve(folder.appendingPathComponent("manifest.json").path)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        for path in ["/publication/\(declared)", "/cover"] {
            let answer = try SecurityHTTP.get(path, port: port)
            #expect(answer.status == 302, "\(path): \(answer.status)")
            #expect(answer.headers["location"] == declared, "\(path)")
        }
        #expect(try SecurityHTTP.get("/publication/http://127.0.0.1:\(target.port)/other.jpg", port: port).status == 404)
        #expect(target.connections == 0, "raudio fetched a remote resource for the page")
    }

    /// A file inside a remote package has no URL to send the browser to: the page server reads it in place,
    /// from the package the listener opened (docs/SECURITY.md's one exception to "no request makes raudio
    /// send one"), and only the files its manifest declares. A file of the package it does not declare, an
    /// href leaving the package, or a URL are refused without reading or fetching them.
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
    func aRemotePackageServesOnlyTheFilesItDeclares() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let package = server.documentRoot.appendingPathComponent("book.audiobook")
        let script = """
            import shutil, sys, zipfile
            shutil.copyfile(sys.argv[1], sys.argv[2])
            with zipfile.ZipFile(sys.argv[2], 'a') as z:
                z.writestr('private.txt', 'undeclared bytes of the package')
                z.writestr('secret/key.txt', 'undeclared bytes of the package')
            """
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["python3", "-c", script, Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook").path, package.path])
        try #require(made.status == 0, "\(made.standardError)")
        let target = try CountingListener()
        let (running, port) = try Self.serve(server.url("book.audiobook"))
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }

        let track = try [UInt8](Data(contentsOf: Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3")))
        let whole = try SecurityHTTP.get("/publication/01-the-storm.mp3", port: port)
        #expect(whole.status == 200 && whole.body == track, "\(whole.status), \(whole.body.count) bytes")
        let part = try SecurityHTTP.get("/publication/01-the-storm.mp3", port: port, headers: ["Range: bytes=1000-1999"])
        #expect(part.status == 206 && part.body == Array(track[1000..<2000]), "\(part.status)")

        let refused = ["private.txt", "secret/key.txt", "%70rivate.txt", "./private.txt", "01-the-storm.mp3/../private.txt",
                       "../book.audiobook", "..%2Fbook.audiobook", "/etc/passwd", server.url("book.audiobook"),
                       "http://127.0.0.1:\(target.port)/secret.txt"]
        for href in refused {
            let answer = try SecurityHTTP.get("/publication/\(href)", port: port)
            #expect(answer.status == 404, "\(href): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("undeclared bytes"), "\(href)")
        }
        #expect(target.connections == 0, "raudio connected to a URL a request named")
        let log = server.accessLog
        #expect(log.contains { $0.contains("GET /book.audiobook ") && $0.contains(" 206 ") }, "the package is read with ranges: \(log)")
        let others = log.filter { !$0.contains("GET /book.audiobook ") }
        #expect(others.isEmpty, "raudio asked the package's server for something else: \(others)")
    }

    @Test func onlyTheManifestsResourcesOfAnEPUBAreServed() throws {
        let publication = try EPUBParser().parse(container: ZIPContainer(url: URL(fileURLWithPath: SpeakCommandTests.sampleEPUB)))
        let site = ReadAlongSite(publication: publication, pageFolder: Corpus.projectRoot.appendingPathComponent("web"))
        for path in ["META-INF/container.xml", "EPUB/package.opf", "mimetype", "EPUB/./package.opf", "EPUB/%70ackage.opf"] {
            #expect(site.response(to: "/publication/\(path)").status == 404, "\(path) is in the package but not in the manifest")
        }
        for path in ["EPUB/chapter-1.xhtml", "EPUB/%63hapter-1.xhtml", "EPUB/nav.xhtml"] {
            #expect(site.response(to: "/publication/\(path)").status == 200, "\(path)")
        }
    }

    @Test(arguments: [["Origin: http://evil.example"], ["Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"], ["Origin: null"],
                      ["Origin: http://127.0.0.1:1"], ["Origin: http://127.0.0.1:PORT", "Origin: http://evil.example"],
                      ["Sec-Fetch-Site: same-origin", "Sec-Fetch-Site: cross-site"]])
    func aCrossSiteRequestIsRefusedOnEveryPath(headers: [String]) throws {
        let book = try Book()
        let (running, port) = try Self.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let headers = headers.map { $0.replacingOccurrences(of: "PORT", with: String(port)) }
        for path in ["/", "/index.html", "/raudio/readalong.js", "/publication/manifest.json", "/publication/data.bin", "/cover", "/nothing"] {
            let answer = try SecurityHTTP.get(path, port: port, headers: headers)
            #expect(answer.status == 403, "\(path) with \(headers): \(answer.status)")
        }
        let sameOrigin = try SecurityHTTP.get("/publication/data.bin", port: port,
                                              headers: ["Origin: http://127.0.0.1:\(port)", "Sec-Fetch-Site: same-origin"])
        #expect(sameOrigin.status == 200, "the page's own requests")
    }

    @Test func aRefusedUpgradeOnThePagePortIs403() throws {
        let book = try Book()
        let (running, port) = try Self.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let upgrade = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        let goodKey = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        let foreign = try SecurityHTTP.send(upgrade + goodKey + "Host: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\n\r\n", port: port)
        #expect(foreign.status == 403)
        let rebound = try SecurityHTTP.send(upgrade + goodKey + "Host: rebound.example:\(port)\r\n\r\n", port: port)
        #expect(rebound.status == 403, "an upgrade naming another host (DNS rebinding)")
        let badKey = try SecurityHTTP.send(upgrade + "Sec-WebSocket-Key: x\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
        #expect(badKey.status == 400, "a key that is not 16 bytes in base64")
        let accepted = try SecurityHTTP.send(upgrade + goodKey + "Host: 127.0.0.1:\(port)\r\n\r\n", port: port, bodyLimit: 0)
        #expect(accepted.status == 101)
    }

    @Test func aRangeIsServedAs206AndOnePastTheEndAs416() throws {
        let book = try Book()
        let (running, port) = try Self.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let length = Book.dataBytes.count
        let whole = try SecurityHTTP.get("/publication/data.bin", port: port)
        #expect(whole.status == 200)
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(whole.body == Book.dataBytes)
        let middle = try SecurityHTTP.get("/publication/data.bin", port: port, headers: ["Range: bytes=1000-1999"])
        #expect(middle.status == 206)
        #expect(middle.headers["content-range"] == "bytes 1000-1999/\(length)")
        #expect(middle.headers["content-length"] == "1000")
        #expect(middle.body == Array(Book.dataBytes[1000..<2000]))
        let tail = try SecurityHTTP.get("/publication/data.bin", port: port, headers: ["Range: bytes=-100"])
        #expect(tail.status == 206)
        #expect(tail.body == Array(Book.dataBytes.suffix(100)))
        let open = try SecurityHTTP.get("/publication/data.bin", port: port, headers: ["Range: bytes=299990-"])
        #expect(open.body == Array(Book.dataBytes[299_990...]))
        let past = try SecurityHTTP.get("/publication/data.bin", port: port, headers: ["Range: bytes=\(length)-"])
        #expect(past.status == 416)
        #expect(past.headers["content-range"] == "bytes */\(length)")
    }

    @Test func threeClientsPullingA512MiBResourceKeepRSSUnder100MB() throws {
        let book = try Book()
        let (running, port) = try Self.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let pulled = 64 << 20
        let answers = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let answer = try? SecurityHTTP.get("/publication/big.bin", port: port, bodyLimit: pulled)
            answers.withLock { $0.append(answer?.body.count ?? -1) }
        }
        #expect(answers.withLock { $0 } == [pulled, pulled, pulled])
        let peak = try #require(running.statusKilobytes("VmHWM"))
        print("SecurityPageServerTests: peak RSS \(peak / 1024) MB while 3 clients pulled \(pulled >> 20) MiB each of a \(Book.bigSize >> 20) MiB resource")
        #expect(peak <= 100 * 1024, "peak RSS \(peak / 1024) MB while 3 clients pulled \(pulled >> 20) MiB each of a \(Book.bigSize >> 20) MiB resource")
        let head = try SecurityHTTP.get("/publication/big.bin", port: port, bodyLimit: 0)
        #expect(head.headers["content-length"] == String(Book.bigSize))
    }
}
