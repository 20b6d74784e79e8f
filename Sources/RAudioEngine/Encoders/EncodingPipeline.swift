// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// An output's encoding on a thread of its own: jobs (append these samples, finish the file) run in the order
/// they are submitted on one thread ("raudio.encode"), so that the caller prepares the next audio while this is
/// encoded, and two outputs (a render's documents and its M4B) encode on two cores.
///
/// At most `capacity` jobs wait: `submit` blocks while that many do, which bounds the audio held in memory. The
/// first error a job throws is kept and every later job is skipped; the caller gets the error from its next
/// `submit`, or from `drain`. The writers a pipeline's jobs use are used by its thread alone until `drain` or
/// `stop` has returned.
public final class EncodingPipeline: @unchecked Sendable {
    public typealias Job = @Sendable () throws(AudioSinkError) -> Void

    /// Jobs waiting, whether one is running, the first error, and whether the thread is to end; under `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var isRunning = false
    private var failure: AudioSinkError?
    private var isStopped = false
    private let capacity: Int

    /// Starts the thread `name`; at most `capacity` jobs wait for it. The thread runs until `stop()`.
    public init(name: String = "raudio.encode", capacity: Int = 32) {
        self.capacity = max(capacity, 1)
        BlockingWork.startThread(named: name) { [self] in serve() }
    }

    /// Queues `job` after the jobs already submitted; waits while `capacity` jobs wait. Throws the error of an
    /// earlier job, if one failed (then `job` is not queued).
    public func submit(_ job: @escaping Job) throws(AudioSinkError) {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, !isStopped, jobs.count >= capacity { condition.wait() }
        if let failure { throw failure }
        guard !isStopped else { return }
        jobs.append(job)
        condition.broadcast()
    }

    /// Waits until every job submitted has run; throws the first error one of them threw.
    public func drain() throws(AudioSinkError) {
        condition.lock()
        defer { condition.unlock() }
        while !jobs.isEmpty || isRunning { condition.wait() }
        if let failure { throw failure }
    }

    /// Drops the jobs still waiting (what they hold is released here), waits for the one running, and ends the
    /// thread. Idempotent.
    public func stop() {
        condition.lock()
        isStopped = true
        let dropped = jobs
        jobs.removeAll()
        condition.broadcast()
        while isRunning { condition.wait() }
        condition.unlock()
        _ = dropped  // released outside the lock: a dropped writer's deinit removes its temporary file
    }

    private func serve() {
        condition.lock()
        while true {
            while jobs.isEmpty, !isStopped { condition.wait() }
            if jobs.isEmpty { break }
            let job = jobs.removeFirst()
            let skipped = failure != nil
            isRunning = true
            condition.broadcast()  // room for a submit waiting on `capacity`
            condition.unlock()
            var thrown: AudioSinkError?
            if !skipped {
                do throws(AudioSinkError) { try job() } catch { thrown = error }
            }
            condition.lock()
            if failure == nil { failure = thrown }
            isRunning = false
            condition.broadcast()
        }
        condition.unlock()
    }
}

/// A value handed to the one thread that uses it (an `AudioFileWriter` to its `EncodingPipeline`): the type
/// is not `Sendable`, and only one thread at a time touches it (the pipeline's, until `drain` or `stop`).
public final class ThreadConfined<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
