// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import Testing

/// No client of `--ipc` or `--web` can exhaust the player: every connection is forgotten when it closes
/// however it closes, connections are capped, a request head has a deadline, and WebSocket frames
/// follow RFC 6455. Real sockets, hand-made frames.
@Suite(.serialized) struct SecurityIPCTests {
    /// Connects to 127.0.0.1:`port`, writes `bytes` and resets the connection (`SO_LINGER` 0: an RST, no FIN).
    static func connectAndReset(port: Int, sending bytes: [UInt8]) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// The port of the first `listening` event of `running`.
    static func listeningPort(of running: RunningProcess) throws -> Int {
        let line = try #require(running.outputLines.first { IPCTests.type($0, "listening") })
        let address = try #require(try PlayCommandTests.object(line)["address"]?.stringValue)
        return try IPCTests.port(of: address)
    }

    static func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test func clientsThatResetOrCloseAtOnceAreAllRemoved() throws {
        let path = IPCTests.socketPath()
        let server = try IPCServer(addresses: [.unix(path: path), .webSocket(host: "127.0.0.1", port: 0)], token: nil,
                                   limits: IPCLimits.from(maximumConnections: 10_000))
        defer { server.finish() }
        guard case .webSocket(_, let port)? = server.boundAddresses.last else { Issue.record("no WebSocket address"); return }
        let upgrade = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 {
                Self.connectAndReset(port: port, sending: upgrade)
                if let client = try? IPCTestClient(unixPath: path) { _ = client }
            }
        }
        #expect(Self.waitUntil(timeout: 10) { server.clientCount() == 0 }, "\(server.clientCount()) clients left of 2,000 that closed")
        // The server still serves.
        let client = try IPCTestClient(unixPath: path)
        client.startReading()
        #expect(client.waitFor { IPCTests.type($0, "hello") })
        #expect(server.clientCount() == 1)
    }

    @Test func connectionsPastTheCapAreClosedAndTheSlotsComeBack() throws {
        let path = IPCTests.socketPath()
        let (running, _) = try IPCTests.start(["--ipc", "unix:\(path)"], extra: ["--ipc-max-connections", "4"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let clients = try (0..<4).map { _ in try IPCTestClient(unixPath: path) }
        for client in clients { client.startReading() }
        for client in clients { #expect(client.waitFor { IPCTests.type($0, "hello") }) }
        let extra = try IPCTestClient(unixPath: path)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(extra.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        #expect(recv(extra.descriptor, &byte, 1, 0) == 0, "the fifth connection is closed at once, with no hello")
        shutdown(clients[0].descriptor, Int32(SHUT_RDWR))
        // The slot is free once the server has seen the close: a client connecting before is still refused.
        var later: IPCTestClient?
        #expect(Self.waitUntil(timeout: 5) {
            guard let client = try? IPCTestClient(unixPath: path) else { return false }
            client.startReading()
            later = client
            return client.waitFor(timeout: 0.5) { IPCTests.type($0, "hello") }
        }, "a slot is free again once a client left")
        _ = later
        #expect(running.process.isRunning)
    }

    @Test func aRequestHeadThatNeverEndsIsClosedAtItsDeadline() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris",
                                          "--ipc", "ws://127.0.0.1:0"], environment: ["RAUDIO_IPC_HEADER_TIMEOUT": "0.5"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 20) { IPCTests.type($0, "listening") })
        let port = try Self.listeningPort(of: running)
        for partial in ["GET / HTTP/1.1\r\nHost: 127.0.0.1", "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 1000\r\n\r\nsome"] {
            let slow = try IPCTestClient(tcpPort: port)
            slow.write(Array(partial.utf8))
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(slow.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            #expect(recv(slow.descriptor, &byte, 1, 0) == 0, "\(partial.prefix(4)): the connection is closed at the request deadline (errno \(errno))")
        }
    }

    /// A frame as a client writes it, with every bit under the test's control.
    static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0, masked: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
        precondition(payload.count < 126)
        frame.append((masked ? 0x80 : 0) | UInt8(payload.count))
        let mask: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4]
        if masked { frame += mask }
        for (index, byte) in payload.enumerated() { frame.append(masked ? byte ^ mask[index % 4] : byte) }
        return frame
    }

    @Test(arguments: [
        ("an unmasked frame", frame(opcode: 0x1, Array(#"{"command":"quit"}"#.utf8), masked: false), UInt16(1002)),
        ("an RSV bit", frame(opcode: 0x1, Array(#"{"command":"quit"}"#.utf8), rsv: 0b100), 1002),
        ("a reserved data opcode", frame(opcode: 0x3, Array(#"{"command":"quit"}"#.utf8)), 1002),
        ("a reserved control opcode", frame(opcode: 0xB, []), 1002),
        ("a continuation with no message begun", frame(opcode: 0x0, Array(#"{"command":"quit"}"#.utf8)), 1002),
        ("a message inside a fragmented one", frame(opcode: 0x1, Array("{".utf8), fin: false) + frame(opcode: 0x1, Array(#"{"command":"quit"}"#.utf8)), 1002),
        ("text that is not UTF-8", frame(opcode: 0x1, [0x7B, 0xC3, 0x28, 0x7D]), 1007),
        ("close code 5", frame(opcode: 0x8, [0x00, 0x05]), 1002),
        ("close code 1005", frame(opcode: 0x8, [0x03, 0xED]), 1002),
        ("a one-byte close", frame(opcode: 0x8, [0x03]), 1002),
        ("a close reason that is not UTF-8", frame(opcode: 0x8, [0x03, 0xE8, 0xFF]), 1007),
    ])
    func aBrokenFramingRuleClosesTheConnection(rule: String, bytes: [UInt8], code: UInt16) throws {
        let (running, addresses) = try IPCTests.start(["--ipc", "ws://127.0.0.1:0"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let client = try IPCTestClient(tcpPort: try IPCTests.port(of: addresses[0]))
        #expect(try client.upgrade() == 101)
        client.startReading()
        #expect(client.waitFor { IPCTests.type($0, "hello") })
        client.write(bytes)
        #expect(Self.waitUntil(timeout: 5) { !client.closeCodes.isEmpty }, "\(rule): no close frame")
        #expect(client.closeCodes == [code], "\(rule)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(running.process.isRunning, "\(rule): the command inside was run")
    }

    @Test func aValidCloseIsEchoed() throws {
        let (running, addresses) = try IPCTests.start(["--ipc", "ws://127.0.0.1:0"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let client = try IPCTestClient(tcpPort: try IPCTests.port(of: addresses[0]))
        #expect(try client.upgrade() == 101)
        client.startReading()
        client.write(Self.frame(opcode: 0x8, [0x0F, 0xA0] + Array("bye".utf8)))
        #expect(Self.waitUntil(timeout: 5) { !client.closeCodes.isEmpty })
        #expect(client.closeCodes == [4000])
    }

    /// The token is compared whole, every byte of the longer looked at (the time depends on the lengths,
    /// not on the first difference): only the same bytes match.
    @Test(arguments: [
        ("s3cret-token", "s3cret-token", true),
        ("s3cret-tokem", "s3cret-token", false),
        ("X3cret-token", "s3cret-token", false),
        ("s3cret", "s3cret-token", false),
        ("s3cret-token-and-more", "s3cret-token", false),
        ("", "s3cret-token", false),
        ("s3cret-token\u{0}", "s3cret-token", false),
        ("jeton-été", "jeton-été", true),
        ("jeton-ete", "jeton-été", false),
        ("", "", true),
    ])
    func theTokenIsComparedWhole(presented: String, token: String, matches: Bool) {
        #expect(IPCAdmission.tokensMatch(presented, token) == matches, "\(presented.debugDescription) against \(token.debugDescription)")
        #expect(!IPCAdmission.tokensMatch(nil, token), "no token given")
    }

    @Test func theTokenCanComeFromAFileOrTheEnvironment() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-token-\(UUID().uuidString.prefix(8))")
        try Data("from-a-file\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (fromFile, fileAddresses) = try IPCTests.start(["--ipc", "ws://0.0.0.0:0"], extra: ["--ipc-allow-remote", "--ipc-token-file", file.path])
        let filePort = try IPCTests.port(of: fileAddresses[0])
        #expect(try IPCTestClient(tcpPort: filePort).upgrade() == 401)
        #expect(try IPCTestClient(tcpPort: filePort).upgrade(path: "/?token=from-a-file") == 101)
        #expect(!((try? String(contentsOfFile: "/proc/\(fromFile.process.processIdentifier)/cmdline", encoding: .utf8)) ?? "").contains("from-a-file"))
        fromFile.send("quit\n")
        #expect(fromFile.finish(timeout: 10))

        let environment = try RunningProcess(ProcessRunner.raudioExecutable,
                                             ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris",
                                              "--ipc", "ws://0.0.0.0:0", "--ipc-allow-remote"], environment: ["RAUDIO_IPC_TOKEN": "from-the-environment"])
        defer { environment.send("quit\n"); _ = environment.finish(timeout: 10) }
        #expect(environment.waitForLine(timeout: 20) { IPCTests.type($0, "listening") }, "\(environment.standardError)")
        let port = try Self.listeningPort(of: environment)
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Authorization": "Bearer wrong"]) == 401)
        #expect(try IPCTestClient(tcpPort: port).upgrade(headers: ["Authorization": "Bearer from-the-environment"]) == 101)
    }
}
