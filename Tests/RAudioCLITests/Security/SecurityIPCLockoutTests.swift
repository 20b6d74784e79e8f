// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The owner is never locked out (issue #51): each listener has its own connection cap, so TCP clients
/// never fill the owner's unix socket; a full TCP listener lets a newcomer take the place of an idle
/// connection (an incomplete request, a WebSocket that sent nothing); a WebSocket that reads nothing
/// answers no ping and is dropped. The figures are the issue's: the owner's `hello` within 1 s under 64 idle
/// WebSockets and under 500 slow sockets (10 tries, all of them), the page answering under 300 idle
/// half-requests.
@Suite(.serialized) struct SecurityIPCLockoutTests {
    /// How long the owner waits for `hello` on the unix socket, ten times: each within 1 s. A refused
    /// connection (closed with no hello) counts as never.
    static func ownerHelloTimes(path: String) -> [Double] {
        (0..<10).map { _ in
            let started = DispatchTime.now()
            guard let owner = try? LineClient(unixPath: path), let line = owner.next(timeout: 5), IPCTests.type(line, "hello") else {
                return .infinity
            }
            return Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        }
    }

    static func describe(_ times: [Double]) -> String {
        times.map { $0.isFinite ? String(format: "%.3f s", $0) : "none" }.joined(separator: ", ")
    }

    @Test func theOwnersHelloComesWithin1sUnder64IdleWebSockets() throws {
        IdleClients.raiseOpenFileLimit(to: 512)
        let path = IPCTests.socketPath()
        let (running, addresses) = try IPCTests.start(["--ipc", "unix:\(path)", "--ipc", "ws://127.0.0.1:0"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        let port = try IPCTests.port(of: addresses[1])
        // Upgraded, then silent: they send nothing and read nothing.
        let idle = try (0..<64).map { _ in try IPCTestClient(tcpPort: port) }
        for client in idle { try #require(try client.upgrade() == 101) }

        let times = Self.ownerHelloTimes(path: path)
        print("SecurityIPCLockoutTests: the owner's hello under 64 idle WebSockets: \(Self.describe(times))")
        #expect(times.allSatisfy { $0 <= 1 }, "the owner's hello under 64 idle WebSockets: \(Self.describe(times))")

        // The WebSocket listener is full of clients that sent nothing: a newcomer takes the oldest one's place.
        let newcomer = try IPCTestClient(tcpPort: port)
        #expect(try newcomer.upgrade() == 101)
        newcomer.startReading()
        #expect(newcomer.waitFor(timeout: 5) { IPCTests.type($0, "hello") }, "a 65th WebSocket is greeted")
        #expect(SecurityIPCTests.waitUntil(timeout: 5) { Self.isClosedByServer(idle[0].descriptor) }, "the oldest idle WebSocket made room")
        #expect(idle.dropFirst().filter { Self.isClosedByServer($0.descriptor) }.isEmpty, "only the oldest")
        #expect(running.process.isRunning)
    }

    @Test func theOwnersHelloComesWithin1sUnder500SlowSocketsWithAToken() throws {
        IdleClients.raiseOpenFileLimit(to: 1_024)
        let path = IPCTests.socketPath()
        let (running, addresses) = try IPCTests.start(["--ipc", "unix:\(path)", "--ipc", "ws://127.0.0.1:0"], extra: ["--ipc-token", "the-owners-token"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        let port = try IPCTests.port(of: addresses[1])
        // Upgrades begun and never ended, their token not sent yet.
        let partial = Array("GET /?token=the-own".utf8)
        var slow: [Int32] = []
        defer { for descriptor in slow { close(descriptor) } }
        for _ in 0..<500 {
            let descriptor = try LineClient.connect(tcpPort: port)
            slow.append(descriptor)
            _ = partial.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        let times = Self.ownerHelloTimes(path: path)
        print("SecurityIPCLockoutTests: the owner's hello under 500 slow sockets: \(Self.describe(times))")
        #expect(times.allSatisfy { $0 <= 1 }, "the owner's hello under 500 slow sockets: \(Self.describe(times))")

        // A client with the token gets its WebSocket too: the slow sockets make room.
        for attempt in 0..<10 {
            let client = try IPCTestClient(tcpPort: port)
            #expect(try client.upgrade(path: "/?token=the-owners-token") == 101, "attempt \(attempt)")
        }
        #expect(running.process.isRunning)
    }

    @Test func thePageAnswersUnder300IdleHalfRequests() throws {
        IdleClients.raiseOpenFileLimit(to: 1_024)
        let (running, port) = try SecurityPageServerTests.serve(PlayCommandTests.sampleBook)
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        let partial = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<300 {
            let descriptor = try LineClient.connect(tcpPort: port)
            idle.append(descriptor)
            _ = partial.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var times: [Double] = []
        for _ in 0..<10 {
            let started = DispatchTime.now()
            let answer = try? SecurityHTTP.get("/", port: port)
            times.append(answer?.status == 200 ? Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9 : .infinity)
        }
        print("SecurityIPCLockoutTests: the page under 300 idle half-requests: \(Self.describe(times))")
        #expect(times.allSatisfy { $0 <= 1 }, "the page under 300 idle half-requests: \(Self.describe(times))")
        #expect(running.process.isRunning)
    }

    /// Whether the server closed `descriptor`: what it was sent is read and dropped until the end (closed)
    /// or until nothing more is there (open).
    static func isClosedByServer(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return true }
            if errno == EINTR { continue }
            return errno != EAGAIN && errno != EWOULDBLOCK
        }
    }

    /// With pings every 0.5 s: a WebSocket that never reads is dropped within two intervals; one that
    /// answers them (a pong, or a command) stays as long as it does.
    @Test func aWebSocketThatAnswersNoPingIsDropped() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris",
                                          "--ipc", "ws://127.0.0.1:0"], environment: ["RAUDIO_IPC_PING_INTERVAL": "0.5"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 20) { IPCTests.type($0, "listening") })
        let port = try SecurityIPCTests.listeningPort(of: running)
        let deaf = try IPCTestClient(tcpPort: port), listening = try IPCTestClient(tcpPort: port)
        #expect(try deaf.upgrade() == 101)
        #expect(try listening.upgrade() == 101)
        for _ in 0..<15 {
            Thread.sleep(forTimeInterval: 0.2)
            #expect(listening.sendFrame(opcode: 0xA, []), "the client that answers is still connected")
        }
        #expect(Self.isClosedByServer(deaf.descriptor), "the client that answers no ping is dropped")
        #expect(!Self.isClosedByServer(listening.descriptor), "the client that answers stays")
        #expect(running.standardError.contains("answered no ping"))
    }
}
