// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// Children started at once from several threads (raudio's eSpeak NG workers are) share no pipe or socket,
/// so each one's end is seen: none stays a zombie that `isRunning` calls running.
/// (Started with `Process.run()` from each thread instead, 60 rounds of 8 gave children sharing pipes and
/// sockets in 8 rounds.)
@Suite struct ChildProcessLaunchTests {
    /// The pipes and sockets a process holds, by inode (`pipe:[123]`, `socket:[456]`).
    static func pipesAndSockets(of pid: Int32) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(names.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"),
                  target.hasPrefix("pipe:") || target.hasPrefix("socket:") else { return nil }
            return target
        })
    }

    /// Starts `count` `cat` processes (each lives until its stdin closes) from as many threads at once; `launch`
    /// starts one and returns its stdin.
    static func startAtOnce(_ count: Int, launch: @escaping @Sendable (Process) throws -> Pipe) throws -> [(Process, Pipe)] {
        let started = Locked<[(Process, Pipe)]>([])
        let failures = Locked<[String]>([])
        let ready = DispatchGroup(), go = DispatchSemaphore(value: 0), done = DispatchGroup()
        for _ in 0..<count {
            ready.enter()
            done.enter()
            BlockingWork.startThread(named: "test.launch") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/cat")
                ready.leave()
                go.wait()
                do {
                    let input = try launch(process)
                    started.withLock { $0.append((process, input)) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                done.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { go.signal() }
        done.wait()
        try #require(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        return started.withLock { $0 }
    }

    @Test func childrenStartedAtOnceShareNoDescriptorAndAllEnd() throws {
        for round in 1...60 {
            let children = try Self.startAtOnce(8) { try ChildProcessLaunch.runWithPipes($0).input }
            let held = children.map { Self.pipesAndSockets(of: $0.0.processIdentifier) }
            for (index, descriptors) in held.enumerated() {
                #expect(!descriptors.isEmpty, "round \(round): child \(index) has no pipe (/proc unreadable?)")
                for other in held.indices where other > index {
                    let shared = descriptors.intersection(held[other])
                    #expect(shared.isEmpty, "round \(round): children \(index) and \(other) both hold \(shared.sorted())")
                }
            }
            for (_, input) in children { try input.fileHandleForWriting.close() }
            let deadline = Date().addingTimeInterval(10)
            while children.contains(where: { $0.0.isRunning }), Date() < deadline { usleep(5_000) }
            let running = children.filter { $0.0.isRunning }.map { $0.0.processIdentifier }
            #expect(running.isEmpty, "round \(round): still running 10 s after their stdin closed: \(running)")
            for (process, _) in children where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
