// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumShared

/// One long-lived `piper/worker.py` process speaking one voice, and the thread that talks to it.
///
/// The process is started at once; its thread ("raudio.piper") waits for the worker's ready line (the
/// voice loaded) and then serves requests one after the other: a JSON line to the worker's stdin, a
/// JSON line and the samples back from its stdout. The worker exits when its stdin closes (`close()`,
/// or raudio's own exit), so no process outlives raudio. If it dies, every waiting and later request
/// fails with `.workerFailed` quoting the end of its stderr; nothing waits forever.
final class PiperWorker: Sendable {
    /// One piece of an answer, as the worker sends it: mono samples at the voice's rate.
    struct Piece: Sendable {
        var samples: [Float]
        /// The frame of the utterance its first sample is.
        var startFrame: Int64
        /// How many of the utterance's phoneme groups it covers (the next ones after the previous piece's).
        var groupCount: Int
        /// Those groups' sample ranges, counted from the utterance's first sample; empty when the model
        /// gives no phoneme durations.
        var groups: [Range<Int64>]
        /// Its length in frames (kept when the samples are dropped).
        var frameCount: Int
        var frames: Range<Int64> { startFrame..<startFrame + Int64(frameCount) }
    }

    /// What the worker sends for one utterance, in order: its phoneme groups (how many sounds each), then
    /// its pieces.
    enum Message: Sendable {
        case groups([Int])
        case piece(Piece)
    }

    private final class Queue: Sendable {
        let jobs = Locked<[@Sendable (PiperPipeReader?, Int32) -> Void]>([])
        let wakeUp = DispatchSemaphore(value: 0)
    }

    let voice: PiperVoiceFile
    private let process: Process
    private let input: FileHandle
    private let queue = Queue()
    private let startup = Locked<Result<Int, PiperError>?>(nil)
    private let started = DispatchSemaphore(value: 0)
    private let stderrTail: StandardErrorTail
    private let failure = Locked<PiperError?>(nil)
    /// The longest first piece (in phonemes) asked for when a listener is likely waiting for the audio.
    private let firstPieceLimit: Int?
    /// Whether the next request is sent with a short first piece: the first one, and the first after a
    /// cancelled one (a new start or a seek). Used on the worker's thread.
    private let nextIsAwaited = Locked(true)

    /// Starts the worker for `voice` with `runtime`'s Python, its environment raudio's with `environment`
    /// added; throws `.workerUnavailable` when the process cannot be started. With `firstPieceLimit`, the
    /// first utterance and the first after a cancelled one start with a piece of at most that many
    /// phonemes (their first audio comes sooner), the pieces after it growing. `pace` says how its inference
    /// threads wait (`PiperInferencePace`).
    init(voice: PiperVoiceFile, runtime: PiperRuntime, environment: [String: String] = [:], firstPieceLimit: Int? = nil,
         pace: PiperInferencePace = .live) throws(PiperError) {
        self.voice = voice
        self.firstPieceLimit = firstPieceLimit
        let process = Process()
        process.executableURL = runtime.python
        process.arguments = ["-u", "-S", runtime.worker.path, voice.model.path, voice.config.path]
        process.environment = ProcessInfo.processInfo.environment
            .merging([PiperInferencePace.environmentVariable: pace.environmentValue]) { _, added in added }
            .merging(environment) { _, added in added }
        let launched: ChildProcessLaunch.Pipes
        do {
            launched = try ChildProcessLaunch.runWithPipes(process)
        } catch {
            throw PiperError(.workerUnavailable, message: "\(runtime.python.path): cannot start the Piper worker (\(error))")
        }
        let stdin = launched.input, stdout = launched.output, stderr = launched.error
        self.process = process
        input = stdin.fileHandleForWriting
        let reader = PiperPipeReader(descriptor: stdout.fileHandleForReading.fileDescriptor)
        stderrTail = StandardErrorTail(descriptor: stderr.fileHandleForReading.fileDescriptor, threadName: "raudio.piper.stderr")
        BlockingWork.startThread(named: "raudio.piper") { [self] in
            startup.withLock { $0 = readReady(reader) }
            started.signal()
            let ready = (try? startup.withLock { $0! }.get()) != nil
            while true {
                queue.wakeUp.wait()
                guard let job = queue.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job(ready ? reader : nil, stdin.fileHandleForWriting.fileDescriptor)
            }
        }
    }

    /// The worker's process id (for diagnostics and tests).
    var processIdentifier: Int32 { process.processIdentifier }

    /// How the process ended: nil while it runs, else whether it exited or was ended by a signal, and the
    /// status or signal (for diagnostics and tests).
    var ending: (reason: Process.TerminationReason, status: Int32)? {
        process.isRunning ? nil : (process.terminationReason, process.terminationStatus)
    }

    /// Blocks until the voice is loaded (about a second for a medium voice); returns its sample rate or
    /// throws `.badVoice` (the worker named the broken file) or `.workerFailed`. From raudio's own
    /// threads or at start-up only.
    func waitUntilReady() throws(PiperError) -> Int {
        started.wait()
        started.signal()
        return try startup.withLock { $0! }.get()
    }

    /// Speaks `text` on the worker's thread after the requests already queued: `onMessage` receives its
    /// groups and then each piece as the worker sends it, `completion` the outcome once the last has come;
    /// both run on that thread. A request cancelled before its turn is not sent; one cancelled while it is
    /// spoken is still read to its end (the pipe stays in step), its messages not handed on.
    func speak(_ text: String, phonemes: [PiperPhonemeSpan] = [], speed: Double, volume: Double, isCancelled: @escaping @Sendable () -> Bool,
               onMessage: @escaping @Sendable (Message) -> Void,
               completion: @escaping @Sendable (Result<Void, PiperError>) -> Void) {
        queue.jobs.withLock {
            $0.append { [self] reader, descriptor in
                if isCancelled() {
                    nextIsAwaited.withLock { $0 = true }
                    return completion(.failure(PiperError(.workerFailed, message: "cancelled")))
                }
                let first = nextIsAwaited.withLock { awaited -> Int? in
                    defer { awaited = false }
                    return awaited ? firstPieceLimit : nil
                }
                var fields: [(String, JSONValue)] = [("text", .string(text)), ("speed", .number(of: speed)), ("volume", .number(of: volume))]
                if let first { fields.append(("first", .integer(Int64(first)))) }
                if !phonemes.isEmpty {
                    fields.append(("phonemes", .array(phonemes.map {
                        .array([.integer(Int64($0.scalars.lowerBound)), .integer(Int64($0.scalars.upperBound)), .string($0.ipa)])
                    })))
                }
                let request = JSONValue.object(JSONObject(fields)).serialized() + "\n"
                let outcome = exchange(request, reader: reader, descriptor: descriptor) { message in
                    if !isCancelled() { onMessage(message) }
                }
                if isCancelled() { nextIsAwaited.withLock { $0 = true } }
                completion(outcome)
            }
        }
        queue.wakeUp.signal()
    }

    /// Closes the worker's stdin and ends it. A worker that has loaded the voice is killed at once (it may
    /// be speaking an utterance nobody will hear: waiting for it kept raudio up to a few hundred
    /// milliseconds longer); one still loading is given up to a second to finish (it may be writing its
    /// model cache), unless `waiting` is false. SIGKILL: a worker inherits the signal mask of the thread that
    /// started it, and that thread may block SIGTERM (raudio blocks it until a command handles it; so did a
    /// test's thread), so SIGTERM would not end it. Returns once it has exited.
    func close(waiting: Bool = true) {
        try? input.close()
        let loaded = (try? startup.withLock { $0 }?.get()) != nil
        let deadline = Date().addingTimeInterval(waiting && !loaded ? 1 : 0)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let reaped = Date().addingTimeInterval(5)
        while process.isRunning, Date() < reaped { usleep(1_000) }
    }

    private func readReady(_ reader: PiperPipeReader) -> Result<Int, PiperError> {
        guard let line = reader.readLine() else { return .failure(diedError(while: "loading the voice")) }
        guard let object = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = object else {
            return .failure(PiperError(.workerFailed, message: "the Piper worker for \(voice.identifier) said \"\(line.prefix(200))\" instead of loading the voice"))
        }
        if case .string(let message)? = fields["error"] {
            let file = fields["file"].flatMap { if case .string(let path) = $0 { path } else { nil } } ?? voice.model.path
            return .failure(PiperError(.badVoice, message: "\(file): \(message)"))
        }
        guard case .integer(let rate)? = fields["sample_rate"], rate > 0 else {
            return .failure(PiperError(.workerFailed, message: "the Piper worker for \(voice.identifier) gave no sample rate"))
        }
        return .success(Int(rate))
    }

    private func exchange(_ request: String, reader: PiperPipeReader?, descriptor: Int32,
                          onMessage: (Message) -> Void) -> Result<Void, PiperError> {
        if let failed = failure.withLock({ $0 }) { return .failure(failed) }
        guard let reader else {
            if case .failure(let error)? = startup.withLock({ $0 }) { return .failure(error) }
            return .failure(diedError(while: "loading the voice"))
        }
        let bytes = Array(request.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return fail(diedError(while: "receiving text")) }
            written += count
        }
        var frame: Int64 = 0
        while true {
            guard let line = reader.readLine() else { return fail(diedError(while: "speaking")) }
            guard let object = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = object else {
                return fail(brokeProtocol(line))
            }
            if case .array(let entries)? = fields["groups"] {
                onMessage(.groups(entries.map { value -> Int in
                    if case .integer(let sounds) = value { return Int(max(0, sounds)) }
                    return 0
                }))
                continue
            }
            guard case .integer(let count)? = fields["samples"], count >= 0 else { return fail(brokeProtocol(line)) }
            guard let samples = reader.readSamples(Int(count)) else { return fail(diedError(while: "sending audio")) }
            if case .string(let message)? = fields["error"] {
                return .failure(PiperError(.workerFailed, message: "Piper could not speak this text with \(voice.identifier): \(message)"))
            }
            let frames = frame..<frame + count
            var groupCount = 0
            if case .integer(let groups)? = fields["groups"] { groupCount = Int(max(0, groups)) }
            var groups: [Range<Int64>] = []
            if case .array(let entries)? = fields["words"] {
                for entry in entries {
                    guard case .array(let values) = entry, values.count >= 2, case .integer(let start) = values[0], case .integer(let end) = values[1],
                          frames.lowerBound <= start, start <= end, end <= frames.upperBound else { break }
                    groups.append(start..<end)
                }
            }
            if groups.count != groupCount { groups = [] }
            onMessage(.piece(Piece(samples: samples, startFrame: frame, groupCount: groupCount, groups: groups, frameCount: samples.count)))
            frame += count
            if case .bool(true)? = fields["last"] { return .success(()) }
        }
    }

    private func brokeProtocol(_ line: String) -> PiperError {
        PiperError(.workerFailed, message: "the Piper worker for \(voice.identifier) broke its protocol: \"\(line.prefix(200))\"")
    }

    private func fail(_ error: PiperError) -> Result<Void, PiperError> {
        failure.withLock { $0 = error }
        return .failure(error)
    }

    private func diedError(while doing: String) -> PiperError {
        usleep(50_000)  // let the stderr thread catch the worker's last words
        let status = process.isRunning ? "still running" : "exit status \(process.terminationStatus)"
        let tail = stderrTail.lastLines
        return PiperError(.workerFailed, message: "the Piper worker for \(voice.identifier) stopped while \(doing) (\(status))\(tail.isEmpty ? "" : ": \(tail)")")
    }
}
