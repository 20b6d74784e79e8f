// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The IPC server under many clients, with the real binary and real sockets: a thousand idle clients do
/// not slow down the one that asks, and twenty thousand connections reset at once leave no memory behind.
/// The two bounds are the issue's (#35): `status` answered within 5 ms, RSS at most 60 MB.
@Suite(.serialized) struct SecurityIPCLoadTests {
    /// A `status` asked over the unix socket while `idle` clients (half unix, half WebSocket) are connected
    /// and ask nothing, the book paused: the median time until the asker has its `state` (the answer,
    /// broadcast to every client) is at most 5 ms, and the server's CPU for each is at most 0.1 ms per
    /// connected client (about 0.05 in the debug build: the broadcast is the cost). The time is checked when
    /// other processes left the machine mostly idle during the measurement (CI runs builds beside the tests:
    /// a server given half a core answers later through no fault of its own); the CPU always. The defect
    /// this guards against (every broadcast also written to dead clients, 20 times as many) cost both 100
    /// times over.
    /// Up to three rounds of 20, the best median counts.
    @Test func statusIsAnsweredWithin5msWithAThousandIdleClients() throws {
        let idle = 1_000
        IdleClients.raiseOpenFileLimit(to: idle * 2 + 256)
        let path = IPCTests.socketPath()
        let (running, addresses) = try IPCTests.start(["--ipc", "unix:\(path)", "--ipc", "ws://127.0.0.1:0"],
                                                      extra: ["--ipc-max-connections", "\(idle + 16)"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        // Paused: what the server does is answer, not play (its position events would go to every client).
        running.send("pause\n")
        try #require(running.waitForLine(timeout: 10) { IPCTests.type($0, "state") && $0.contains("\"paused\"") })
        let port = try IPCTests.port(of: addresses[1])
        let clients = try IdleClients(unixPath: path, unixCount: idle / 2, webSocketPort: port, webSocketCount: idle - idle / 2)
        try #require(clients.waitUntilAllGreeted(timeout: 60), "\(clients.greeted) of \(idle) idle clients got their hello")

        let asker = try LineClient(unixPath: path)
        try #require(asker.next(timeout: 10).map { IPCTests.type($0, "hello") } == true)
        var rounds: [RoundTrips] = []
        for round in 0..<3 {
            rounds.append(try Self.roundTrips(of: asker, label: "round-\(round)", server: running.process.processIdentifier))
            if rounds.last!.median <= 5 { break }
        }
        let best = rounds.min { $0.median < $1.median }!
        print("SecurityIPCLoadTests: status round trip with \(idle) idle clients (\(idle / 2) unix, \(idle - idle / 2) WebSocket): "
            + rounds.map(\.description).joined(separator: "; "))
        #expect(best.serverCPUPerCommand / Double(idle + 1) <= 0.1, "the server's CPU for each status with \(idle) idle clients: \(best)")
        if best.othersBusy <= 0.5 {
            #expect(best.median <= 5, "status round trip with \(idle) idle clients: \(best)")
        } else {
            print("SecurityIPCLoadTests: other processes kept the machine \(Int(best.othersBusy * 100)) % busy: the time is not checked")
        }
        #expect(clients.greeted == idle, "every idle client is still connected")
        #expect(running.process.isRunning)
    }

    /// Twenty `status` round trips: their times in milliseconds, sorted; the server's CPU over them; how
    /// idle the machine was meanwhile.
    struct RoundTrips: CustomStringConvertible {
        var sorted: [Double]
        /// The server's user and system CPU milliseconds over the round, per command.
        var serverCPUPerCommand: Double
        /// The share of the machine's CPU time that other processes than the server used over the round
        /// (from /proc/stat, less the server's).
        var othersBusy: Double
        var median: Double { (sorted[9] + sorted[10]) / 2 }
        var description: String {
            "median \(String(format: "%.2f", median)) ms, min \(String(format: "%.2f", sorted[0])) ms, "
                + "max \(String(format: "%.2f", sorted[19])) ms, server CPU \(String(format: "%.1f", serverCPUPerCommand)) ms each, "
                + "others kept the machine \(Int(othersBusy * 100)) % busy"
        }
    }

    /// Twenty `status` round trips of `asker`: from the command sent until its `ack` and then a `state` came.
    static func roundTrips(of asker: LineClient, label: String, server: Int32) throws -> RoundTrips {
        var times: [Double] = []
        let cpuBefore = try #require(processCPUMilliseconds(server)), machineBefore = try #require(machineCPUTicks())
        for attempt in 0..<20 {
            let sent = DispatchTime.now()
            asker.send(#"{"command":"status","id":"\#(label)-\#(attempt)"}"#)
            var acknowledged = false, answered = false
            while let line = asker.next(timeout: 10) {
                if IPCTests.type(line, "ack") && line.contains("\"\(label)-\(attempt)\"") { acknowledged = true }
                if acknowledged && IPCTests.type(line, "state") { answered = true; break }
            }
            try #require(answered, "status \(label)-\(attempt) was answered")
            times.append(Double(DispatchTime.now().uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6)
            Thread.sleep(forTimeInterval: 0.05)
        }
        let cpuAfter = try #require(processCPUMilliseconds(server)), machineAfter = try #require(machineCPUTicks())
        let total = Double(machineAfter.total - machineBefore.total), idle = Double(machineAfter.idle - machineBefore.idle)
        // Ticks are 1/CLK_TCK s across every core; the server's milliseconds in the same unit.
        let serverTicks = (cpuAfter - cpuBefore) * Double(sysconf(Int32(_SC_CLK_TCK))) / 1000
        return RoundTrips(sorted: times.sorted(), serverCPUPerCommand: (cpuAfter - cpuBefore) / 20,
                          othersBusy: total > 0 ? max(0, (total - idle - serverTicks) / total) : 0)
    }

    /// A process's user + system CPU in milliseconds (/proc/PID/stat's utime and stime, in clock ticks).
    static func processCPUMilliseconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The machine's CPU ticks since boot, all and idle (idle and iowait), from /proc/stat's `cpu` line.
    static func machineCPUTicks() -> (total: Int, idle: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard ticks.count >= 5 else { return nil }
        return (ticks.reduce(0, +), ticks[3] + ticks[4])
    }

    /// While one client sends commands as fast as it can (its answers and their events go to it first) and
    /// the book plays, each of 300 idle clients, and the asker, is sent the events in stdout's order, none
    /// missing, none twice: the broadcast's turns never reorder what a client gets.
    @Test func everyClientGetsTheEventsInStdoutOrderWhileAnotherAsks() throws {
        let idle = 300
        IdleClients.raiseOpenFileLimit(to: idle * 2 + 256)
        let path = IPCTests.socketPath()
        let (running, _) = try IPCTests.start(["--ipc", "unix:\(path)"], extra: ["--ipc-max-connections", "\(idle + 16)"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        let clients = try IdleClients(unixPath: path, unixCount: idle, recording: true)
        try #require(clients.waitUntilAllGreeted(timeout: 60), "\(clients.greeted) of \(idle) idle clients got their hello")

        let asker = try LineClient(unixPath: path)
        var askerLines: [String] = []
        let commands = [#"{"command":"status","id":"s"}"#, #"{"command":"pause","id":"p"}"#, #"{"command":"status","id":"s"}"#,
                        #"{"command":"play","id":"r"}"#]
        for round in 0..<40 {
            asker.send(commands[round % commands.count])
            while let line = asker.next(timeout: 0.01) { askerLines.append(line) }
        }
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, let line = asker.next(timeout: 0.1) { askerLines.append(line) }
        let askerEvents = askerLines.filter { !IPCTests.type($0, "hello") && !IPCTests.type($0, "ack") && !IPCTests.type($0, "error") }
        // The broadcast reaches 300 clients in turns, later than the asker on a loaded machine: wait (bounded)
        // until each idle client has been sent as many events as the asker saw, then take what they have.
        let idleEvents = { clients.lines.map { Array($0.drop { !IPCTests.type($0, "hello") }.dropFirst()) } }
        _ = SecurityIPCTests.waitUntil(timeout: 30) { idleEvents().allSatisfy { $0.count >= askerEvents.count } }
        var streams = idleEvents()
        streams.append(askerEvents)
        // Stdout is written before any client is sent the event, but read here through a pipe: wait (bounded)
        // until it holds every stream's last event.
        let lastEvents = Set(streams.compactMap(\.last))
        _ = SecurityIPCTests.waitUntil(timeout: 30) { lastEvents.isSubset(of: running.outputLines) }
        let stdout = running.outputLines
        var misordered: [String] = []
        for (index, stream) in streams.enumerated() where !stream.isEmpty {
            if !Self.isContiguousRun(stream, of: stdout) { misordered.append(index == idle ? "the asker" : "idle client \(index)") }
        }
        #expect(askerEvents.count >= 8, "the asker was sent \(askerEvents.count) events")
        #expect(streams.allSatisfy { $0.count >= askerEvents.count },
                "every idle client was sent as many events as the asker (\(askerEvents.count)): \(streams.map(\.count).min() ?? 0) at least")
        #expect(misordered.isEmpty, "not stdout's events in stdout's order: \(misordered.prefix(5)) (of \(misordered.count))")
    }

    /// Whether `lines` is found in `all` as one run: each one, in order, none between.
    static func isContiguousRun(_ lines: [String], of all: [String]) -> Bool {
        guard let first = lines.first else { return true }
        for start in all.indices where all[start] == first && all.count - start >= lines.count {
            if all[start..<(start + lines.count)].elementsEqual(lines) { return true }
        }
        return false
    }

    /// 20,000 connections reset as soon as made (WebSocket upgrades, then RST; unix-socket connects closed
    /// at once), from 4 threads: the player's RSS stays at most 60 MB, and it still answers.
    @Test func twentyThousandResetConnectionsLeaveRSSUnder60MB() throws {
        let total = 20_000
        let path = IPCTests.socketPath()
        let (running, addresses) = try IPCTests.start(["--ipc", "unix:\(path)", "--ipc", "ws://127.0.0.1:0"],
                                                      extra: ["--ipc-max-connections", "64"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        // Paused: the book (a minute long) must not end while the connections are made.
        running.send("pause\n")
        #expect(running.waitForLine(timeout: 10) { IPCTests.type($0, "state") && $0.contains("\"paused\"") })
        let port = try IPCTests.port(of: addresses[1])
        let before = try #require(running.statusKilobytes("VmRSS"))
        let upgrade = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for index in 0..<(total / 4) {
                if index % 2 == 0 {
                    SecurityIPCTests.connectAndReset(port: port, sending: upgrade)
                } else if let client = try? IPCTestClient(unixPath: path) {
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(client.descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        // The server has caught up once a new client is greeted and answered.
        let client = try IPCTestClient(unixPath: path)
        client.startReading()
        #expect(client.waitFor(timeout: 20) { IPCTests.type($0, "hello") })
        client.sendLine(#"{"command":"status","id":"after"}"#)
        #expect(client.waitFor(timeout: 20) { IPCTests.type($0, "ack") && $0.contains("\"after\"") })
        let after = try #require(running.statusKilobytes("VmRSS"))
        print("SecurityIPCLoadTests: VmRSS \(before / 1024) MB before, \(after / 1024) MB after \(total) reset connections (\(String(format: "%.1f", seconds)) s)")
        #expect(after <= 60 * 1024, "VmRSS \(after / 1024) MB after \(total) reset connections (\(before / 1024) MB before)")
        #expect(running.process.isRunning)
    }
}

/// Many clients that never send a command: unix-socket clients, and WebSocket clients that sent their
/// upgrade request. One thread polls them all; a client counts as greeted once its `hello` arrived, and
/// stops counting if it is closed. After the hello a client is read no further unless `recording`: the
/// kernel's socket buffers (hundreds of KiB) hold the events of a test's seconds (about 1 KB a second),
/// and the test process, which shares the machine with the server it measures, spends no time reading.
final class IdleClients: @unchecked Sendable {
    private let descriptors: [Int32]
    private let greetedState: Locked<[Bool]>
    /// With `recording`: every byte each client was sent.
    private let received: Locked<[[UInt8]]>
    private let stop = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    /// Raises this process's soft `RLIMIT_NOFILE` to `count` (at most the hard limit); raudio, started
    /// after, inherits it.
    static func raiseOpenFileLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    init(unixPath: String, unixCount: Int, webSocketPort port: Int = 0, webSocketCount: Int = 0, recording: Bool = false) throws {
        var descriptors: [Int32] = []
        let upgrade = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        do {
            for _ in 0..<unixCount { descriptors.append(try LineClient.connect(unixPath: unixPath)) }
            for _ in 0..<webSocketCount {
                let descriptor = try LineClient.connect(tcpPort: port)
                descriptors.append(descriptor)
                _ = upgrade.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
        self.descriptors = descriptors
        greetedState = Locked(Array(repeating: false, count: descriptors.count))
        received = Locked(Array(repeating: [], count: descriptors.count))
        let greetedState = greetedState, received = received, stop = stop, done = done, watched = descriptors
        Thread.detachNewThread {
            var polled = watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var greeted = Array(repeating: false, count: watched.count)
            var buffer = [UInt8](repeating: 0, count: 65536)
            let hello = Array(#""type":"hello""#.utf8)
            // Kept light: this thread shares the machine with the server it measures.
            while !stop.withLock({ $0 }) {
                guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
                for index in polled.indices where polled[index].revents != 0 {
                    let count = buffer.withUnsafeMutableBytes { recv(polled[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count > 0 {
                        if recording { received.withLock { $0[index] += buffer[0..<count] } }
                        if !greeted[index], buffer[0..<count].firstRange(of: hello) != nil {
                            greeted[index] = true
                            greetedState.withLock { $0[index] = true }
                            // Not read further: only a close (POLLHUP) is still reported.
                            if !recording { polled[index].events = 0 }
                        }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        greetedState.withLock { $0[index] = false }
                        polled[index].fd = -1
                    }
                }
            }
            done.signal()
        }
    }

    deinit {
        stop.withLock { $0 = true }
        done.wait()
        for descriptor in descriptors { close(descriptor) }
    }

    /// With `recording`: the lines each client was sent so far (unix-socket clients).
    var lines: [[String]] {
        received.withLock { $0 }.map { bytes in bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) } }
    }

    /// How many clients got their `hello` and are still connected.
    var greeted: Int { greetedState.withLock { $0.filter { $0 }.count } }

    func waitUntilAllGreeted(timeout: TimeInterval) -> Bool {
        SecurityIPCTests.waitUntil(timeout: timeout) { greeted == descriptors.count }
    }
}

/// A unix-socket client read line by line on the caller's thread, with no polling interval: for timing
/// an answer to the millisecond (`IPCTestClient` looks at what arrived every 10 ms).
final class LineClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(unixPath path: String) throws {
        descriptor = try Self.connect(unixPath: path)
    }

    deinit {
        close(descriptor)
    }

    /// A socket connected to the unix socket at `path`, for the caller to close.
    static func connect(unixPath path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else { close(descriptor); throw IPCTestClient.Failure(description: "connect \(path): errno \(errno)") }
        return descriptor
    }

    /// A socket connected to 127.0.0.1:`port`, for the caller to close.
    static func connect(tcpPort port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { close(descriptor); throw IPCTestClient.Failure(description: "connect 127.0.0.1:\(port): errno \(errno)") }
        return descriptor
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil when none came within `timeout` or the connection ended.
    func next(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&polled, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
        }
    }
}
