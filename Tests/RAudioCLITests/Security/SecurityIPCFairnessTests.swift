// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Each client has its own queue (issue #51): ten clients flooding `status` (each answered by a `state` to
/// everyone) make the server emit thousands of events, and a bystander reading at its own pace gets the
/// newest state instead of every one, never falling 1,000 events behind; it is not dropped.
@Suite(.serialized) struct SecurityIPCFairnessTests {
    @Test func aBystanderReadingAtItsPaceIsNotDroppedWhileTenClientsFloodStatus() throws {
        let path = IPCTests.socketPath()
        let (running, _) = try IPCTests.start(["--ipc", "unix:\(path)"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 20) }
        let bystander = try LineClient(unixPath: path)
        try #require(bystander.next(timeout: 10).map { IPCTests.type($0, "hello") } == true)

        let stop = Locked(false), sent = Locked(0)
        let floodersDone = DispatchGroup()
        for _ in 0..<10 {
            let descriptor = try LineClient.connect(unixPath: path)
            floodersDone.enter()
            Thread.detachNewThread {
                defer { close(descriptor); floodersDone.leave() }
                let batch = Array(String(repeating: #"{"command":"status"}"# + "\n", count: 32).utf8)
                var buffer = [UInt8](repeating: 0, count: 65536)
                var offset = 0
                while !stop.withLock({ $0 }) {
                    let written = batch[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                    if written < 0 && errno != EAGAIN && errno != EINTR { return }
                    if written > 0 { offset += written }
                    if offset == batch.count { offset = 0; sent.withLock { $0 += 32 } }
                    // The flooders take their own answers as fast as they come.
                    while buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
                    if written <= 0 { Thread.sleep(forTimeInterval: 0.001) }
                }
            }
        }
        // The bystander reads a line every 5 ms (200 events a second) for 6 s.
        var read = 0, states = 0, longestWait = 0.0
        let deadline = Date().addingTimeInterval(6)
        var lastLine = Date()
        while Date() < deadline {
            guard let line = bystander.next(timeout: 5) else { break }
            read += 1
            longestWait = max(longestWait, Date().timeIntervalSince(lastLine))
            lastLine = Date()
            if IPCTests.type(line, "state") { states += 1 }
            Thread.sleep(forTimeInterval: 0.005)
        }
        stop.withLock { $0 = true }
        floodersDone.wait()
        print("SecurityIPCFairnessTests: ten clients sent \(sent.withLock { $0 }) status commands in 6 s; the bystander read "
            + "\(read) lines (\(states) states), waiting at most \(String(format: "%.2f", longestWait)) s for one")
        // Still connected, it is answered: what it is owed comes first.
        bystander.send(#"{"command":"status","id":"bystander"}"#)
        var answered = false
        while let line = bystander.next(timeout: 10) {
            if IPCTests.type(line, "ack") && line.contains("\"bystander\"") { answered = true; break }
        }
        #expect(answered, "the bystander is still connected and answered after the flood (\(read) lines read during it)")
        #expect(states >= 100, "the bystander was sent states during the flood: \(states)")
        #expect(!running.standardError.contains("IPC client 1 stopped reading"), "\(running.standardError.suffix(300))")
        #expect(running.process.isRunning)
    }
}
