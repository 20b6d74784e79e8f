// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import Dispatch
import Foundation
import ReadiumNavigator
import ReadiumShared
import Synchronization

/// The one thread of the process that calls eSpeak NG, which has global state and is not thread-safe.
///
/// Started on first use ("raudio.espeak"); it loads libespeak-ng (`raudio_espeak_load_error`), calls
/// `espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS)` once
/// for the life of the process, installs the synthesis callback and lists the voices, then runs jobs
/// one after the other: callers enqueue closures behind a `Locked` and wake the thread with a
/// semaphore. Every eSpeak NG call of raudio runs inside a job (or that start-up), so synthesis
/// callbacks also run on this thread.
///
/// Touching `shared` starts the thread without waiting for it (`ESpeakEngine.startInitializing`
/// does so at process start, so that eSpeak NG initializes while the book opens); `startup` and
/// `voices` wait for the start-up to finish.
final class ESpeakThread: Sendable {
    /// The process-wide thread; initializing eSpeak NG happens once, here.
    static let shared = ESpeakThread()

    /// How many times `espeak_Initialize` was called in this process (1 once started; for tests).
    static var initializationCount: Int { initializations.load(ordering: .acquiring) }
    private static let initializations = Atomic<Int>(0)

    /// Jobs waiting for the thread, and the semaphore that wakes it.
    private final class JobQueue: Sendable {
        let jobs = Locked<[@Sendable () -> Void]>([])
        let wakeUp = DispatchSemaphore(value: 0)
    }

    private let queue = JobQueue()
    private let started = StartupBox()

    /// The output sample rate, or why eSpeak NG could not start. Waits for the start-up (any thread
    /// but the eSpeak thread).
    var startup: Result<Int, TTSError> { started.wait().sampleRate }

    /// eSpeak NG's voices (`espeak_ListVoices`, read once at start-up; empty when it could not start).
    /// Waits for the start-up (any thread but the eSpeak thread).
    var voices: [TTSVoice] { started.wait().voices }

    private init() {
        BlockingWork.startThread(named: "raudio.espeak") { [queue, started] in
            let sampleRate = ESpeakThread.initialize()
            let voices = (try? sampleRate.get()) == nil ? [] : ESpeakVoiceList.read()
            started.finish(Startup(sampleRate: sampleRate, voices: voices))
            while true {
                queue.wakeUp.wait()
                let job = queue.jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
    }

    /// Runs `job` on the eSpeak thread after the jobs already queued; returns at once.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.jobs.withLock { $0.append(job) }
        queue.wakeUp.signal()
    }

    /// What the thread's start-up gave.
    private struct Startup: Sendable {
        var sampleRate: Result<Int, TTSError>
        var voices: [TTSVoice]
    }

    /// The start-up's outcome, set once by the eSpeak thread; readers wait for it.
    private final class StartupBox: Sendable {
        private let value = Locked<Startup?>(nil)
        private let done = DispatchGroup()

        init() { done.enter() }

        func finish(_ startup: Startup) {
            value.withLock { $0 = startup }
            done.leave()
        }

        func wait() -> Startup {
            done.wait()
            return value.withLock { $0! }
        }
    }

    /// Runs `job` on the eSpeak thread and blocks the caller until it returns. Never call it from the
    /// eSpeak thread itself (it would wait forever) nor from the cooperative pool for long work.
    func performAndWait<Value: Sendable>(_ job: @escaping @Sendable () -> Value) -> Value {
        let result = ResultBox<Value>()
        let done = DispatchSemaphore(value: 0)
        enqueue {
            let value = job()
            result.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.value.withLock { $0! }
    }

    /// Wraps `espeak_Initialize` in synchronous mode and `espeak_SetSynthCallback`.
    private static func initialize() -> Result<Int, TTSError> {
        initializations.add(1, ordering: .releasing)
        // libespeak-ng is loaded here, on first use (CESpeakNG), not at process start.
        if let reason = raudio_espeak_load_error() {
            return .failure(TTSError(.libraryUnavailable, message: "eSpeak NG cannot start: \(String(cString: reason))"))
        }
        let sampleRate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard sampleRate > 0 else {
            return .failure(TTSError(
                .engineUnavailable, message: "eSpeak NG could not start: espeak_Initialize failed (is espeak-ng-data installed?)",
                underlyingStatus: sampleRate
            ))
        }
        espeak_SetSynthCallback(eSpeakSynthesisCallback)
        return .success(Int(sampleRate))
    }
}

/// A value handed from the eSpeak thread to a waiting caller.
final class ResultBox<Value: Sendable>: Sendable {
    let value = Locked<Value?>(nil)
}
