// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing

/// `EncodingPipeline`: jobs in order on a thread of its own, a bounded backlog, the first error kept and
/// thrown to the caller, and `stop` that drops what waits.
@Suite struct EncodingPipelineTests {
    /// The name of the calling thread, as the system knows it.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func jobsRunInTheirOrderOnThePipelinesThread() throws {
        let pipeline = EncodingPipeline(name: "test.encode", capacity: 4)
        defer { pipeline.stop() }
        let ran = Locked<[(Int, String)]>([])
        for number in 0..<100 {
            try pipeline.submit { () throws(AudioSinkError) in ran.withLock { $0.append((number, Self.threadName())) } }
        }
        try pipeline.drain()
        let jobs = ran.withLock { $0 }
        #expect(jobs.map(\.0) == Array(0..<100))
        #expect(Set(jobs.map(\.1)) == ["test.encode"], "\(Set(jobs.map(\.1)))")
    }

    @Test func submitWaitsWhileTheBacklogIsFull() throws {
        let pipeline = EncodingPipeline(name: "test.encode", capacity: 2)
        defer { pipeline.stop() }
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        try pipeline.submit { () throws(AudioSinkError) in started.signal(); release.wait() }
        started.wait()  // the first job runs (and holds the thread): two more may wait
        try pipeline.submit {}
        try pipeline.submit {}
        let fourthQueued = DispatchSemaphore(value: 0)
        BlockingWork.startThread(named: "test.submit") {
            try? pipeline.submit {}
            fourthQueued.signal()
        }
        #expect(fourthQueued.wait(timeout: .now() + 0.3) == .timedOut, "a submit beyond the capacity returned at once")
        release.signal()
        #expect(fourthQueued.wait(timeout: .now() + 10) == .success)
        try pipeline.drain()
    }

    @Test func theFirstErrorIsThrownByTheNextSubmitAndByDrainAndLaterJobsAreSkipped() throws {
        let pipeline = EncodingPipeline(name: "test.encode")
        defer { pipeline.stop() }
        let ran = Locked<[Int]>([])
        try pipeline.submit { () throws(AudioSinkError) in ran.withLock { $0.append(1) } }
        try pipeline.submit { () throws(AudioSinkError) in throw AudioSinkError(.writeFailed, subject: "out.mp3", message: "disk full") }
        try? pipeline.submit { () throws(AudioSinkError) in ran.withLock { $0.append(3) } }  // queued before the failure is seen, or refused
        #expect(throws: AudioSinkError.self) { try pipeline.drain() }
        do {
            try pipeline.submit { () throws(AudioSinkError) in ran.withLock { $0.append(4) } }
            Issue.record("a submit after a failed job was accepted")
        } catch {
            #expect(error.code == .writeFailed && error.subject == "out.mp3", "\(error)")
        }
        try? pipeline.drain()
        #expect(ran.withLock { $0 } == [1], "jobs after the failure ran: \(ran.withLock { $0 })")
    }

    /// Held by a job: its end says when the pipeline let the job go.
    final class Held: Sendable {
        let released: Locked<Bool>
        init(_ released: Locked<Bool>) { self.released = released }
        deinit { released.withLock { $0 = true } }
    }

    @Test func stopDropsTheWaitingJobsAndWaitsForTheRunningOne() throws {
        let pipeline = EncodingPipeline(name: "test.encode")
        let started = DispatchSemaphore(value: 0)
        let finished = Locked(false), ranAfterStop = Locked(false), released = Locked(false)
        try pipeline.submit { () throws(AudioSinkError) in
            started.signal()
            usleep(200_000)
            finished.withLock { $0 = true }
        }
        started.wait()
        do {
            let held = Held(released)
            try pipeline.submit { () throws(AudioSinkError) in _ = held; ranAfterStop.withLock { $0 = true } }
        }
        pipeline.stop()
        #expect(finished.withLock { $0 }, "stop returned before the running job ended")
        #expect(released.withLock { $0 }, "the dropped job was not released")
        usleep(100_000)
        #expect(!ranAfterStop.withLock { $0 }, "a job waiting at stop ran")
    }
}
