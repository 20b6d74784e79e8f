// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// 10,000 random and malformed commands on stdin during playback, as fast as they can be written.
@Suite(.serialized) struct StdinFloodTests {
    /// A line the parser must refuse, of one of several kinds, from `generator`.
    static func badLine(_ index: Int, _ generator: inout SystemRandomNumberGenerator) -> String {
        switch index % 8 {
        case 0: // random bytes, invalid UTF-8 included (never a line break: LF, VT, FF, CR; never only blanks)
            let count = Int.random(in: 1...80, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }.map { (0x0A...0x0D).contains($0) ? 0x7E : $0 }
            return "x" + String(decoding: bytes, as: UTF8.self)
        case 1: return "{\"command\":" // truncated JSON
        case 2: return "{\"command\":\"volume\",\"value\":\(Int.random(in: 3...1000, using: &generator)),\"id\":\(index)}" // (volume goes to 2)
        case 3: return "speed \(Double.random(in: 3.5...99, using: &generator))"
        case 4: return "seek nonsense\(index)"
        case 5: return "[1,2,3]"
        case 6: return "{\"command\":\"frobnicate\",\"id\":\"f\(index)\"}"
        default: return String(repeating: "z", count: Int.random(in: 1...3000, using: &generator))
        }
    }

    /// Valid commands that keep playback going (acknowledged, never refused).
    static let goodLines = ["pause", "play", "volume 0.5", "speed 1.25", "{\"command\":\"volume\",\"value\":0.9}", "toggle", "play"]

    @Test func tenThousandCommandsAreAllAnsweredWithoutDeadlockAndWithBoundedMemory() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--keep-open"])
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"state\"") }, "\(running.standardError)")
        var generator = SystemRandomNumberGenerator()
        var bad = 0, good = 0
        var text = ""
        for index in 0..<10_000 {
            if index % 5 == 4 {
                text += Self.goodLines[index % Self.goodLines.count] + "\n"
                good += 1
            } else {
                text += Self.badLine(index, &generator) + "\n"
                bad += 1
            }
        }
        text += "play\n{\"command\":\"status\",\"id\":\"final-status\"}\n"
        // Written from another thread: raudio applies back-pressure through the pipe.
        let allText = text
        let written = Thread.detachNewThreadWithResult { running.send(allText) }
        let answered = running.waitForLine(timeout: 120) { $0.contains("\"id\":\"final-status\"") }
        #expect(answered, "no answer to the final status (deadlock?)\n\(running.standardError.suffix(2000))")
        // The state event after the status ack is printed right after it.
        _ = running.waitForLine(timeout: 5) { $0.contains("\"type\":\"state\"") }
        let peakKilobytes = running.statusKilobytes("VmHWM")
        running.send("quit\n")
        #expect(running.finish(timeout: 30), "raudio did not quit")
        #expect(written.value == true)
        #expect(running.process.terminationReason == .exit && running.process.terminationStatus == 0)

        let events = try running.outputLines.map(PlayCommandTests.object)
        let refusals = events.filter { $0["type"] == "error" && $0["fatal"] == false && ($0["code"]?.stringValue?.hasPrefix("command-") ?? false) }
        #expect(refusals.count == bad, "\(refusals.count) refusals for \(bad) bad commands")
        #expect(!events.contains { $0["type"] == "error" && $0["fatal"] == true })
        let acks = events.filter { $0["type"] == "ack" }
        #expect(acks.count == good + 3, "\(acks.count) acks for \(good) good commands + play, status, quit")
        // State consistent afterwards: the final status says playing, at a locator inside the book.
        let statusIndex = try #require(events.lastIndex { $0["type"] == "ack" && $0["id"] == "final-status" })
        let state = try #require(events[(statusIndex + 1)...].first { $0["type"] == "state" })
        #expect(state["state"] == "playing")
        let seconds = try #require(state["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(seconds >= 0 && seconds <= PlayCommandTests.sampleDuration)
        let peak = try #require(peakKilobytes)
        // Under AddressSanitizer (`RAUDIO_ASAN=1`, set by scripts/sanitizers/run.sh) resident memory is
        // mostly shadow memory and the freed-memory quarantine (about 530 MB here): the bound means
        // nothing there, and ASan checks the memory itself.
        if ProcessInfo.processInfo.environment["RAUDIO_ASAN"] != "1" {
            #expect(peak < 80 * 1024, "peak RSS \(peak / 1024) MB")
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread; `value` waits for its result.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}

final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var stored: T?
    func set(_ value: T) {
        stored = value
        done.signal()
    }
    var value: T? {
        _ = done.wait(timeout: .now() + 60)
        return stored
    }
}
