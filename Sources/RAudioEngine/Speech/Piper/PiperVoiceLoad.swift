// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A Piper voice whose worker has been started and is loading the model, to be taken as a `PiperEngine`
/// when it is needed: started first thing, the load (about a second) runs in the worker process while
/// raudio opens the book and plans the first utterance.
///
/// `engine()` waits for the load and hands the worker over (once); a load never taken stops its worker
/// when it is released. Any thread.
public final class PiperVoiceLoad: Sendable {
    public let voiceFile: PiperVoiceFile
    private let worker: PiperWorker
    private let taken = Locked(false)

    /// Starts the worker for `voice` (see `PiperEngine.init`); throws `.workerUnavailable` when the
    /// process cannot be started. Does not wait for the model.
    public init(voice: PiperVoiceFile, runtime: PiperRuntime, environment: [String: String] = [:],
                firstPieceLimit: Int? = PiperEngine.defaultFirstPieceLimit, pace: PiperInferencePace = .live) throws(PiperError) {
        voiceFile = voice
        worker = try PiperWorker(voice: voice, runtime: runtime, environment: environment, firstPieceLimit: firstPieceLimit, pace: pace)
    }

    deinit {
        if !taken.withLock({ $0 }) { worker.close(waiting: false) }
    }

    /// Waits until the voice is loaded and returns its engine. Throws `.badVoice` naming the file when
    /// the model or config is truncated or not a Piper voice, `.workerFailed` when the worker died, or
    /// when the engine was already taken. Blocks: call it at start-up.
    public func engine() throws(PiperError) -> PiperEngine {
        let first = taken.withLock { taken -> Bool in
            defer { taken = true }
            return !taken
        }
        guard first else { throw PiperError(.workerFailed, message: "the Piper voice \(voiceFile.identifier) was already taken") }
        return try PiperEngine(voice: voiceFile, worker: worker)
    }
}
