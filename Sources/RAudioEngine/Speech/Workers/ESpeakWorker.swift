// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumNavigator
import ReadiumShared

/// One eSpeak NG worker of an `ESpeakWorkerPool`: a `raudio espeak-worker` process and the thread
/// ("raudio.espeak-worker") that talks to it, serving its utterances one after the other in the
/// order they were handed to it.
///
/// Requests are pipelined: up to `pipelineDepth` of them wait in the process's stdin, so it starts the
/// next utterance as soon as it has written an answer instead of waiting for this thread to read that
/// answer, complete it and send another request. The answers come back in the order of the requests.
///
/// The process is started with the thread and started again, for the next utterance, after it died:
/// the utterance it was speaking fails with `.synthesisFailed` quoting how it ended and its stderr, so
/// the synthesizer warns and goes on; the requests sent behind it are sent again to its successor.
/// Completions run on this thread.
final class ESpeakWorker: Sendable {
    private struct Job: Sendable {
        var utterance: TTSUtterance
        var cancellation: TTSCancellation
        var completion: @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
        /// Spoken by a new process (the current one ended once the utterances before are answered).
        var freshProcess = false
    }

    private final class Queue: Sendable {
        let jobs = Locked<(pending: [Job], isClosed: Bool)>(([], false))
        let wakeUp = DispatchSemaphore(value: 0)
    }

    /// The worker's number in its pool (0-based), for messages.
    let number: Int
    private let executable: URL
    private let arguments: [String]
    private let format: PCMFormat
    /// Turns the identifier a worker answers with into the voice it names.
    private let voices: @Sendable (String) -> TTSVoice?
    private let queue = Queue()
    private let current = Locked<ESpeakWorkerProcess?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread, which starts the process. `format` is what the worker must announce (the
    /// pool's own eSpeak NG's), `voices` maps an answer's voice identifier to a voice.
    init(number: Int, executable: URL, arguments: [String], format: PCMFormat, voices: @escaping @Sendable (String) -> TTSVoice?) {
        self.number = number
        self.executable = executable
        self.arguments = arguments
        self.format = format
        self.voices = voices
        BlockingWork.startThread(named: "raudio.espeak-worker") { [self] in
            _ = try? running()
            var sent: [SentJob] = []
            while true {
                topUp: while sent.count < Self.pipelineDepth, let job = nextJob() {
                    switch send(job, behind: sent) {
                    case .sent(let request): sent.append(request)
                    case .completed: continue
                    case .putBack: break topUp
                    }
                }
                if !sent.isEmpty {
                    receive(sent.removeFirst(), behind: &sent)
                    continue
                }
                if queue.jobs.withLock({ $0.isClosed && $0.pending.isEmpty }) { break }
                // One signal per job queued (or for close): jobs taken before their signal was
                // consumed only make a later wait return at once, and the loop looks again.
                queue.wakeUp.wait()
            }
            current.withLock { $0 }?.stop()
            finished.signal()
        }
    }

    /// The running process's id, nil between a death and the next utterance (for diagnostics and tests).
    var processIdentifier: Int32? { current.withLock { $0?.processIdentifier } }

    /// Queues `utterance` after the ones already handed to this worker; returns at once. With `freshProcess`,
    /// it is spoken by a new process, started once the utterances before it are answered: eSpeak NG carries
    /// state from one utterance to the next (an utterance's samples depend on what the process spoke before).
    func speak(_ utterance: TTSUtterance, cancellation: TTSCancellation, freshProcess: Bool = false,
               completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void) {
        let accepted = queue.jobs.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.pending.append(Job(utterance: utterance, cancellation: cancellation, completion: completion, freshProcess: freshProcess))
            return true
        }
        guard accepted else {
            return completion(.failure(TTSError(.cancelled, message: "speaking \"\(utterance.text.prefix(40))\" was cancelled: the eSpeak NG workers were stopped")))
        }
        queue.wakeUp.signal()
    }

    /// Fails the utterances still queued as cancelled, lets the one being spoken finish, stops the
    /// process (closing its stdin, killed after a second) and waits for the thread to end. Any thread
    /// but this worker's; idempotent.
    func close() {
        let dropped = queue.jobs.withLock { state -> [Job]? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            defer { state.pending.removeAll() }
            return state.pending
        }
        guard let dropped else { return }
        for job in dropped { job.completion(.failure(cancelled(job.utterance))) }
        queue.wakeUp.signal()
        // The utterance being spoken ends first; a worker stuck in it (stopped) is killed after 2 s.
        if finished.wait(timeout: .now() + 2) == .timedOut {
            if let pid = processIdentifier { kill(pid, SIGKILL) }
            finished.wait()
        }
    }

    /// The running process, started if there is none.
    private func running() throws(TTSError) -> ESpeakWorkerProcess {
        if let process = current.withLock({ $0 }) { return process }
        let process = try ESpeakWorkerProcess(executable: executable, arguments: arguments, name: "eSpeak NG worker \(number + 1)")
        guard let line = process.reader.readLine() else {
            throw TTSError(.engineUnavailable, message: "eSpeak NG worker \(number + 1) (\(executable.path)) stopped while starting (\(process.obituary()))")
        }
        switch ESpeakWorkerMessage.parseReady(line) {
        case .failed(let reason):
            _ = process.obituary()
            throw TTSError(.engineUnavailable, message: "eSpeak NG worker \(number + 1) could not start: \(reason)")
        case .ready(let rate) where rate != format.sampleRate:
            process.stop()
            throw TTSError(.engineUnavailable, message: "eSpeak NG worker \(number + 1) speaks at \(rate) Hz, not \(format.sampleRate) Hz as raudio's own eSpeak NG")
        case .ready:
            current.withLock { $0 = process }
            return process
        }
    }

    /// How many requests may wait in the process's stdin, the one it speaks included: two keep it busy
    /// while this thread reads the previous answer; more would only be lost work on a seek.
    static let pipelineDepth = 2

    /// The longest request (bytes) sent while another is unanswered: well under a pipe's 64 KB.
    static let pipelinedRequestLimit = 16_384

    /// A job whose request was written to `process`.
    private struct SentJob {
        var job: Job
        var process: ESpeakWorkerProcess
    }

    /// The oldest queued job, nil when none is queued.
    private func nextJob() -> Job? {
        queue.jobs.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    }

    /// What became of a job handed to `send`.
    private enum Sending {
        case sent(SentJob)
        /// Completed instead: cancelled before it was sent, or the worker could not take it.
        case completed
        /// Queued again at the front, to be sent once the earlier requests are answered: it is long,
        /// or the process died with them unanswered (reading them fails the one it was speaking and
        /// starts its successor).
        case putBack
    }

    /// Writes `job`'s request to the process (started if there is none); `sent` are the requests
    /// written before it, answers not read yet.
    private func send(_ job: Job, behind sent: [SentJob]) -> Sending {
        guard !job.cancellation.isCancelled else {
            job.completion(.failure(cancelled(job.utterance)))
            return .completed
        }
        if job.freshProcess {
            // The process ends once it has answered the requests before this one; the next is started anew.
            guard sent.isEmpty else {
                queue.jobs.withLock { $0.pending.insert(job, at: 0) }
                return .putBack
            }
            let old = current.withLock { process -> ESpeakWorkerProcess? in
                defer { process = nil }
                return process
            }
            old?.stop()
            var started = job
            started.freshProcess = false
            return send(started, behind: sent)
        }
        do throws(TTSError) {
            let process = try running()
            let request = ESpeakWorkerMessage.request(for: job.utterance)
            // A long request waits until the worker is idle: written behind another, it could fill the
            // stdin pipe while the worker waits for this thread to read its answer.
            if !sent.isEmpty, request.utf8.count > Self.pipelinedRequestLimit {
                queue.jobs.withLock { $0.pending.insert(job, at: 0) }
                return .putBack
            }
            if process.send(request) { return .sent(SentJob(job: job, process: process)) }
            if sent.contains(where: { $0.process === process }) {
                queue.jobs.withLock { $0.pending.insert(job, at: 0) }
                return .putBack
            }
            throw died(process, while: "receiving \"\(job.utterance.text.prefix(40))\"")
        } catch {
            job.completion(.failure(error))
            return .completed
        }
    }

    /// Reads the answer to `request` and completes its job. When the process died or broke the
    /// protocol, the requests `behind` it that went to the same process are queued again at the front
    /// (in order), for the process started next.
    private func receive(_ request: SentJob, behind: inout [SentJob]) {
        let result: Result<SynthesizedUtterance, TTSError>
        do throws(TTSError) {
            result = .success(try exchange(request.job.utterance, with: request.process))
        } catch {
            result = .failure(error)
            if current.withLock({ $0 !== request.process }) {
                let orphans = behind.filter { $0.process === request.process }.map(\.job)
                behind.removeAll { $0.process === request.process }
                queue.jobs.withLock { $0.pending.insert(contentsOf: orphans, at: 0) }
            }
        }
        // A cancelled utterance's answer is read (the pipe stays in step) and thrown away.
        request.job.completion(request.job.cancellation.isCancelled ? .failure(cancelled(request.job.utterance)) : result)
    }

    /// Reads the answer to `utterance`, whose request was sent; a dead or confused worker is forgotten
    /// (the next utterance starts another) and the utterance fails with what became of it.
    private func exchange(_ utterance: TTSUtterance, with process: ESpeakWorkerProcess) throws(TTSError) -> SynthesizedUtterance {
        let quoted = "\"\(utterance.text.prefix(40))\""
        guard let line = process.reader.readLine() else { throw died(process, while: "speaking \(quoted)") }
        guard let header = ESpeakWorkerMessage.parseAnswerHeader(line) else {
            throw died(process, while: "speaking \(quoted)", broke: "answered \"\(line.prefix(120))\"")
        }
        guard let samples = process.reader.readPCM16Samples(header.sampleCount, volume: utterance.volume) else { throw died(process, while: "sending the audio of \(quoted)") }
        if let error = header.error { throw error }
        guard let boundaries = ESpeakWorkerMessage.wordBoundaries(of: header, in: utterance.text, frameCount: Int64(samples.count)) else {
            throw died(process, while: "speaking \(quoted)", broke: "gave words outside the text or the audio")
        }
        let identifier = header.voiceIdentifier ?? ""
        let voice = voices(identifier) ?? TTSVoice(identifier: identifier, name: identifier, language: Language(code: "und"))
        return SynthesizedUtterance(text: utterance.text, voice: voice, warning: header.warning, format: format,
                                    samples: samples, wordBoundaries: boundaries)
    }

    private func died(_ process: ESpeakWorkerProcess, while doing: String, broke: String? = nil) -> TTSError {
        current.withLock { if $0 === process { $0 = nil } }
        let end = process.obituary()
        let what = broke.map { "broke its protocol (\($0)) while \(doing)" } ?? "stopped while \(doing)"
        return TTSError(.synthesisFailed, message: "eSpeak NG worker \(number + 1) (pid \(process.processIdentifier)) \(what) (\(end)); it is started again for the next utterance")
    }

    private func cancelled(_ utterance: TTSUtterance) -> TTSError {
        TTSError(.cancelled, message: "speaking \"\(utterance.text.prefix(40))\" was cancelled")
    }
}
