// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `--ipc`: the events and commands protocol over a unix socket and a WebSocket, with the real binary
/// and real sockets (`IPCTestClient`), beside stdin and stdout.
@Suite(.serialized) struct IPCTests {
    /// A playing session of the sample audiobook (null output, real time) with `ipc` options; returns
    /// it once its `listening` events are out, with their addresses.
    static func start(_ ipc: [String], extra: [String] = []) throws -> (RunningProcess, [String]) {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris"] + extra + ipc)
        let count = ipc.filter { $0 == "--ipc" }.count
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, running.outputLines.filter({ $0.contains("\"type\":\"listening\"") }).count < count, running.process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let addresses = try running.outputLines.filter { $0.contains("\"type\":\"listening\"") }.map { try #require(PlayCommandTests.object($0)["address"]?.stringValue) }
        try #require(addresses.count == count, "listening: \(running.outputLines) \(running.standardError)")
        return (running, addresses)
    }

    static func socketPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("raudio-ipc-\(UUID().uuidString.prefix(8)).sock").path
    }

    static func port(of address: String) throws -> Int {
        try #require(address.split(separator: ":").last.flatMap { Int($0) })
    }

    static func type(_ message: String, _ type: String) -> Bool { message.contains("\"type\":\"\(type)\"") }

    @Test func helloOnConnectThenAnAnswerGoesToItsClientOnly() throws {
        let path = Self.socketPath()
        let (running, addresses) = try Self.start(["--ipc", "unix:\(path)"])
        #expect(addresses == ["unix:\(path)"])
        #expect(running.waitForLine(timeout: 10) { Self.type($0, "position") })
        let asker = try IPCTestClient(unixPath: path), other = try IPCTestClient(unixPath: path)
        asker.startReading()
        other.startReading()
        #expect(asker.waitFor { Self.type($0, "hello") })
        let hello = try PlayCommandTests.object(try #require(other.messages.first ?? (other.waitFor { _ in true } ? other.messages.first : nil)))
        #expect(hello["type"]?.stringValue == "hello")
        #expect(hello["publication"]?.objectValue?["title"]?.stringValue == "The Last Lamp of Gull Rock")
        #expect(hello["state"]?.stringValue == "playing")
        #expect(hello["locator"]?.objectValue?["href"]?.stringValue == "01-the-storm.mp3")
        #expect(hello["settings"]?.objectValue?["speed"]?.doubleValue == 1, "the hello tells the settings in use")

        asker.sendLine(#"{"command":"pause","id":"asker-1"}"#)
        #expect(asker.waitFor { Self.type($0, "ack") && $0.contains("\"asker-1\"") })
        #expect(other.waitFor { Self.type($0, "state") && $0.contains("\"paused\"") })
        #expect(running.waitForLine(timeout: 5) { Self.type($0, "state") && $0.contains("\"paused\"") })
        // Words, and a bad line: the error goes to the asker alone too.
        asker.sendLine("resume please")
        #expect(asker.waitFor { Self.type($0, "error") && $0.contains("command-unknown") })
        // stdin still works beside: its answer is on stdout.
        running.send(#"{"command":"play","id":"stdin-1"}"# + "\n")
        #expect(running.waitForLine(timeout: 5) { Self.type($0, "ack") && $0.contains("\"stdin-1\"") })
        #expect(other.waitFor { Self.type($0, "state") && $0.contains("\"playing\"") })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!other.messages.contains { $0.contains("asker-1") || Self.type($0, "error") }, "another client's answers: \(other.messages.filter { $0.contains("asker-1") })")
        #expect(!running.outputLines.contains { $0.contains("asker-1") || $0.contains("command-unknown") }, "stdout got a client's answer")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0)
        if EventSchemaValidator.isAvailable {
            try EventSchemaValidator.validate(asker.messages + other.messages)
            try EventSchemaValidator.validate(running.outputLines)
        }
    }

    @Test func speakFollowsItsUtterancesOverBothTransports() throws {
        let path = Self.socketPath()
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris",
                                          "--ipc", "unix:\(path)", "--ipc", "ws://[::1]:0"])
        #expect(running.waitForLine(timeout: 20) { Self.type($0, "utterance") })
        let listening = running.outputLines.filter { Self.type($0, "listening") }
        #expect(listening.count == 2, "\(listening)")
        let lines = try IPCTestClient(unixPath: path)
        lines.startReading()
        #expect(lines.waitFor { Self.type($0, "hello") && $0.contains("\"state\":\"playing\"") })
        #expect(lines.waitFor { Self.type($0, "range") }, "words are followed")
        lines.sendLine("pause")
        #expect(lines.waitFor { Self.type($0, "ack") && $0.contains("\"pause\"") })
        #expect(running.waitForLine(timeout: 5) { Self.type($0, "state") && $0.contains("\"paused\"") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func socketIsPrivateAndRemovedAtExit() throws {
        let path = Self.socketPath()
        // A stale socket from a run that crashed is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        let (running, _) = try Self.start(["--ipc", "unix:\(path)"])
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is left behind")
    }

    @Test func aPathThatIsNotAStaleSocketIsRefused() throws {
        let path = Self.socketPath()
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--json", "--no-mpris", "--ipc", "unix:\(path)"], timeout: 20)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test(arguments: [
        ["--ipc", "ws://0.0.0.0:0"],
        ["--ipc", "ws://0.0.0.0:0", "--ipc-allow-remote"],
        ["--ipc", "ws://0.0.0.0:0", "--ipc-token", "secret"],
    ])
    func aRemoteAddressNeedsAllowRemoteAndAToken(_ options: [String]) throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--json", "--no-mpris"] + options, timeout: 20)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("loopback"))
        #expect(!result.outputLines.contains { Self.type($0, "opened") })
    }

    @Test func webSocketRoundTrip() throws {
        let path = Self.socketPath()
        let (running, addresses) = try Self.start(["--ipc", "ws://127.0.0.1:0", "--ipc", "unix:\(path)"])
        let port = try Self.port(of: addresses[0])
        #expect(port > 0 && addresses[0] == "ws://127.0.0.1:\(port)")
        #expect(running.standardError.contains("listening on ws://127.0.0.1:\(port)"))
        let client = try IPCTestClient(tcpPort: port)
        #expect(try client.upgrade(headers: ["Origin": "http://127.0.0.1:\(port)"]) == 101)
        client.startReading()
        #expect(client.waitFor { Self.type($0, "hello") && $0.contains("Gull Rock") })
        #expect(client.waitFor { Self.type($0, "position") }, "events follow")
        client.sendText(#"{"command":"status","id":5}"#)
        #expect(client.waitFor { Self.type($0, "ack") && $0.contains("\"id\":5") })
        client.sendText(#"{"command":"#)
        #expect(client.waitFor { Self.type($0, "error") && $0.contains("command-malformed") })
        client.sendFrame(opcode: 0x2, [1, 2, 3])
        #expect(client.waitFor { Self.type($0, "error") && $0.contains("binary") })
        client.sendText(String(repeating: "x", count: 70_000))
        #expect(client.waitFor { Self.type($0, "error") && $0.contains("command-too-long") })
        // A message in two fragments is one command.
        client.sendFrame(opcode: 0x1, Array(#"{"command":"sta"#.utf8), fin: false)
        client.sendFrame(opcode: 0x0, Array(#"tus","id":"two-parts"}"#.utf8))
        #expect(client.waitFor { Self.type($0, "ack") && $0.contains("two-parts") })
        client.sendFrame(opcode: 0x9, Array("are you there".utf8))
        let deadline = Date().addingTimeInterval(5)
        while !client.frameOpcodes.contains(0xA), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(client.frameOpcodes.contains(0xA), "pong")
        client.sendFrame(opcode: 0x8, [0x03, 0xE8])
        let closeDeadline = Date().addingTimeInterval(5)
        while !client.frameOpcodes.contains(0x8), Date() < closeDeadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(client.frameOpcodes.contains(0x8), "the close is answered")
        // Still playing, stdout untouched by the client's answers.
        #expect(running.process.isRunning)
        #expect(!running.outputLines.contains { $0.contains("two-parts") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0)
    }

    @Test func anotherOriginIsForbidden() throws {
        let (running, addresses) = try Self.start(["--ipc", "ws://127.0.0.1:0"])
        let port = try Self.port(of: addresses[0])
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Origin": "http://evil.example"]) == 403)
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Origin": "http://127.0.0.1:\(port + 1)"]) == 403)
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Origin": "http://localhost:\(port)"]) == 101)
        #expect(try IPCTestClient(tcpPort: port).upgrade() == 101, "programs send no Origin")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
    }

    @Test func aRemoteListenerWantsItsToken() throws {
        let (running, addresses) = try Self.start(["--ipc", "ws://0.0.0.0:0", "--ipc-allow-remote", "--ipc-token", "s3cret"])
        let port = try Self.port(of: addresses[0])
        #expect(try IPCTestClient(tcpPort: port).upgrade() == 401)
        #expect(try IPCTestClient(tcpPort: port).upgrade(path: "/?token=wrong") == 401)
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Authorization": "Bearer nope"]) == 401)
        #expect(try IPCTestClient(tcpPort: port).upgrade(path: "/?token=s3cret") == 101)
        let bearer = try IPCTestClient(tcpPort: port)
        #expect(try bearer.upgrade(headers: ["Authorization": "Bearer s3cret"]) == 101)
        bearer.startReading()
        #expect(bearer.waitFor { Self.type($0, "hello") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
    }

    @Test func tenThousandCommandsFromFourClientsAreAllAnswered() throws {
        let path = Self.socketPath()
        let (running, _) = try Self.start(["--ipc", "unix:\(path)"])
        let clients = try (0..<4).map { _ in try IPCTestClient(unixPath: path) }
        for client in clients { client.startReading() }
        let perClient = 2_500
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            var batch = ""
            for number in 0..<perClient {
                batch += #"{"command":"play","id":"c\#(index)-\#(number)"}"# + "\n"
                if number % 100 == 99 {
                    clients[index].write(Array(batch.utf8))
                    batch = ""
                }
            }
        }
        for (index, client) in clients.enumerated() {
            let deadline = Date().addingTimeInterval(60)
            var acks: [String] = []
            while Date() < deadline {
                acks = client.messages.filter { Self.type($0, "ack") }
                if acks.count >= perClient { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(acks.count == perClient, "client \(index): \(acks.count) acks")
            #expect(acks.allSatisfy { $0.contains("\"c\(index)-") }, "client \(index) got another's ack")
            let ids = Set(acks.compactMap { try? PlayCommandTests.object($0)["id"]?.stringValue })
            #expect(ids.count == perClient, "client \(index): \(ids.count) distinct ids")
        }
        #expect(!running.standardError.contains("dropped"), "\(running.standardError)")
        running.send("quit\n")
        #expect(running.finish(timeout: 10), "no deadlock")
    }

    @Test func theWebOptionServesThePageAndThePublicationBesideItsWebSocket() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris", "--web"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 20) { Self.type($0, "listening") })
        let listening = try PlayCommandTests.object(try #require(running.outputLines.first { Self.type($0, "listening") }))
        let page = try #require(listening["page"]?.stringValue)
        let port = try Self.port(of: try #require(listening["address"]?.stringValue))
        #expect(page == "http://127.0.0.1:\(port)/")
        #expect(running.standardError.contains("raudio: read along at \(page)"))

        let index = try IPCTestClient(tcpPort: port).get("/", host: "127.0.0.1:\(port)")
        #expect(index.status == 200)
        #expect(String(decoding: index.body, as: UTF8.self).contains("readalong.js"))
        let chapter = try IPCTestClient(tcpPort: port).get("/publication/EPUB/chapter-2.xhtml", host: "localhost:\(port)")
        #expect(chapter.status == 200)
        #expect(chapter.headers["content-type"] == "application/xhtml+xml")
        #expect(chapter.headers["content-security-policy"]?.contains("script-src 'none'") == true)
        #expect(chapter.body.count == Int(chapter.headers["content-length"] ?? ""))
        #expect(try IPCTestClient(tcpPort: port).get("/", host: "rebound.example:\(port)").status == 403, "DNS rebinding")
        #expect(try IPCTestClient(tcpPort: port).get("/publication/EPUB/none.xhtml", host: "127.0.0.1:\(port)").status == 404)

        let client = try IPCTestClient(tcpPort: port)
        #expect(try client.upgrade(path: "/ws", headers: ["Origin": "http://127.0.0.1:\(port)"]) == 101, "the page's own origin")
        client.startReading()
        #expect(client.waitFor { Self.type($0, "hello") })
        #expect(client.waitFor { Self.type($0, "range") }, "words follow")
        #expect(try IPCTestClient(tcpPort: port).upgrade(path: "/ws", headers: ["Origin": "http://elsewhere.example"]) == 403)
    }

    @Test func openStartsTheDesktopBrowserOnThePage() throws {
        // A stand-in for the desktop's xdg-open, first in PATH: it writes the URL it is given.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-open-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let opened = folder.appendingPathComponent("opened.txt")
        let script = folder.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--json", "--no-state", "--web", "--open"],
                                              environment: ["PATH": path], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let url = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("raudio: read along at ") }).dropFirst("raudio: read along at ".count)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: opened.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect((try? String(contentsOf: opened, encoding: .utf8)) == String(url))
    }

    @Test func aStalledClientIsDroppedWhilePlaybackGoesOn() throws {
        let path = Self.socketPath()
        let (running, _) = try Self.start(["--ipc", "unix:\(path)"])
        let reader = try IPCTestClient(unixPath: path)
        reader.startReading()
        let stalled = try IPCTestClient(unixPath: path)
        // Never reads; each of its commands is answered with an error (no state kept) until it is dropped.
        var sent = 0
        let batch = Array(String(repeating: #"{"command":"bookmarks","id":1}"# + "\n", count: 500).utf8)
        while sent < 40, stalled.write(batch) { sent += 1 }
        let deadline = Date().addingTimeInterval(20)
        while !running.standardError.contains("stopped reading"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(running.standardError.contains("stopped reading"), "\(running.standardError)")
        let positionsAtDrop = reader.messages.filter { Self.type($0, "position") }.count
        #expect(reader.waitFor(timeout: 5) { _ in reader.messages.filter { Self.type($0, "position") }.count >= positionsAtDrop + 3 },
                "positions keep coming to the client that reads")
        #expect(!reader.messages.contains { Self.type($0, "error") }, "the stalled client's answers went to it alone")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0)
    }

    @Test func badLinesOnTheUnixSocketAreAnsweredWithErrors() throws {
        let path = Self.socketPath()
        let (running, _) = try Self.start(["--ipc", "unix:\(path)"])
        let client = try IPCTestClient(unixPath: path)
        client.startReading()
        client.sendLine(#"{"command":"#)
        #expect(client.waitFor { Self.type($0, "error") && $0.contains("command-malformed") })
        client.sendLine(String(repeating: "y", count: 70_000))
        #expect(client.waitFor { Self.type($0, "error") && $0.contains("command-too-long") })
        client.write([0xFF, 0xFE, 0x0A])
        client.sendLine(#"{"command":"status","id":"after"}"#)
        #expect(client.waitFor { Self.type($0, "ack") && $0.contains("\"after\"") }, "the connection still works")
        #expect(running.process.isRunning)
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0)
    }
}
