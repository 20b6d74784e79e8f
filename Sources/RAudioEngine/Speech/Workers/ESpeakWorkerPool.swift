// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// eSpeak NG on several cores: a `TTSEngine` whose utterances are synthesized by N worker processes,
/// each the `raudio` binary running `raudio espeak-worker` with its own `ESpeakEngine`.
///
/// eSpeak NG is not thread-safe (one instance per process), hence processes. Utterance k (counted in
/// the order `synthesize` is called) goes to worker k mod N, which speaks its utterances in order, so
/// a render from the same start with the same N hands every worker the same utterances in the same
/// order and gives the same PCM (eSpeak NG carries state from one utterance to the next, so the PCM
/// differs slightly from a render in one process, and with another N). Voices, presets, rate, pitch,
/// volume and per-language voice choice are those of `ESpeakEngine`: this process keeps one for the
/// voice lists, the workers speak with theirs (same binary, same presets). Completions run on the
/// worker's thread; `onChunk` is not called (a worker answers with the whole utterance).
///
/// A worker that dies fails the utterance it was speaking (`.synthesisFailed`, quoting its exit and
/// stderr) and is started again for its next one. The workers end when `close()` closes their stdin,
/// or when raudio exits in any way (their stdin then ends too), so none outlives raudio.
public final class ESpeakWorkerPool: TTSEngine {
    /// This process's eSpeak NG, which lists the voices and chooses them (it speaks nothing).
    public let local: ESpeakEngine
    public let format: PCMFormat
    private let workers: [ESpeakWorker]
    private let requestCount = Locked<Int>(0)

    /// Starts `workerCount` workers (≥ 1): `executable arguments` must run `ESpeakWorkerServer` (for
    /// raudio, `/proc/self/exe espeak-worker`), given `--presets presetsFolder` when the presets came
    /// from a folder (else the worker loads them as raudio does). Returns without waiting for them.
    ///
    /// Throws `.engineUnavailable` when eSpeak NG cannot start in this process. SIGPIPE is ignored from
    /// here on (a dead worker's stdin must fail a write, not end raudio), as raudio's CLI does anyway.
    public init(presets: VoicePresets, presetsFolder: URL?, workerCount: Int, executable: URL = currentExecutable,
                arguments: [String] = ["espeak-worker"]) throws(TTSError) {
        signal(SIGPIPE, SIG_IGN)
        let engine = try ESpeakEngine(presets: presets)
        local = engine
        format = engine.format
        let arguments = arguments + (presetsFolder.map { ["--presets", $0.path] } ?? [])
        workers = (0..<max(workerCount, 1)).map { number in
            ESpeakWorker(number: number, executable: executable, arguments: arguments, format: engine.format) { engine.voice(withIdentifier: $0) }
        }
    }

    deinit { close() }

    /// The raudio binary of this process, to run as the workers.
    public static var currentExecutable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    }

    public var workerCount: Int { workers.count }

    /// The running workers' process ids, in worker order (a worker between a death and its next
    /// utterance has none). For diagnostics and tests.
    public var workerProcessIdentifiers: [Int32] { workers.compactMap(\.processIdentifier) }

    public var availableVoices: [TTSVoice] { local.availableVoices }

    public func voice(withIdentifier identifier: String) -> TTSVoice? { local.voice(withIdentifier: identifier) }

    public func voice(forLanguage language: Language) -> TTSVoiceChoice { local.voice(forLanguage: language) }

    public func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        // Counted and queued under one lock: two callers cannot swap their places in the workers' queues.
        requestCount.withLock { count in
            let worker = workers[count % workers.count]
            count += 1
            worker.speak(utterance, cancellation: cancellation, completion: completion)
        }
    }

    /// Synthesizes `utterance` on worker `worker` (modulo their count), after the utterances already handed
    /// to it; with `freshProcess`, in a new process of that worker's (the current one ends once it answered
    /// those before). eSpeak NG carries state from one utterance to the next: a render that must give the
    /// same samples whatever was spoken before (`raudio render`, resumed from its cache) starts each block of
    /// utterances in a fresh process. Completion on the worker's thread.
    public func synthesize(_ utterance: TTSUtterance, worker: Int, freshProcess: Bool, cancellation: TTSCancellation,
                           completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void) {
        workers[((worker % workers.count) + workers.count) % workers.count].speak(utterance, cancellation: cancellation, freshProcess: freshProcess,
                                                                                   completion: completion)
    }

    /// Stops every worker: queued utterances fail as cancelled, the ones being spoken finish, the
    /// processes exit. Blocks up to a few seconds: from a thread raudio owns or at the end, not the
    /// cooperative pool's hot path. Idempotent.
    public func close() {
        for worker in workers { worker.close() }
    }
}
