// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumNavigator
import ReadiumShared

/// One eSpeak NG worker of an `ESpeakWorkerPool`: a `raudio espeak-worker` process and the thread
/// ("raudio.espeak-worker") that talks to it, serving its utterances one after the other in the
/// order they were handed to it.
///
/// The process is started with the thread and started again, for the next utterance, after it died:
/// the utterance it was speaking fails with `.synthesisFailed` quoting how it ended and its stderr, so
/// the synthesizer warns and goes on. Completions run on this thread.
final class ESpeakWorker: Sendable {
    private struct Job: Sendable {
        var utterance: TTSUtterance
        var cancellation: TTSCancellation
        var completion: @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
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
        let thread = Thread { [self] in
            _ = try? running()
            while true {
                queue.wakeUp.wait()
                let (job, isClosed) = queue.jobs.withLock { state -> (Job?, Bool) in
                    (state.pending.isEmpty ? nil : state.pending.removeFirst(), state.isClosed)
                }
                if let job {
                    serve(job)
                } else if isClosed {
                    break
                }
            }
            current.withLock { $0 }?.stop()
            finished.signal()
        }
        thread.name = "raudio.espeak-worker"
        thread.start()
    }

    /// The running process's id, nil between a death and the next utterance (for diagnostics and tests).
    var processIdentifier: Int32? { current.withLock { $0?.processIdentifier } }

    /// Queues `utterance` after the ones already handed to this worker; returns at once.
    func speak(_ utterance: TTSUtterance, cancellation: TTSCancellation,
               completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void) {
        let accepted = queue.jobs.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.pending.append(Job(utterance: utterance, cancellation: cancellation, completion: completion))
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

    /// Speaks one job on this thread and completes it.
    private func serve(_ job: Job) {
        guard !job.cancellation.isCancelled else { return job.completion(.failure(cancelled(job.utterance))) }
        let result: Result<SynthesizedUtterance, TTSError>
        do throws(TTSError) {
            result = .success(try exchange(job.utterance, with: try running()))
        } catch {
            result = .failure(error)
        }
        // A cancelled utterance's answer is read (the pipe stays in step) and thrown away.
        job.completion(job.cancellation.isCancelled ? .failure(cancelled(job.utterance)) : result)
    }

    /// Sends the request and reads the answer; a dead or confused worker is forgotten (the next
    /// utterance starts another) and the utterance fails with what became of it.
    private func exchange(_ utterance: TTSUtterance, with process: ESpeakWorkerProcess) throws(TTSError) -> SynthesizedUtterance {
        let quoted = "\"\(utterance.text.prefix(40))\""
        guard process.send(ESpeakWorkerMessage.request(for: utterance)) else { throw died(process, while: "receiving \(quoted)") }
        guard let line = process.reader.readLine() else { throw died(process, while: "speaking \(quoted)") }
        guard let header = ESpeakWorkerMessage.parseAnswerHeader(line) else {
            throw died(process, while: "speaking \(quoted)", broke: "answered \"\(line.prefix(120))\"")
        }
        guard let samples = process.reader.readSamples(header.sampleCount) else { throw died(process, while: "sending the audio of \(quoted)") }
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
