// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization

/// A flag that stops an utterance being synthesized: set from any thread, polled by the engine.
///
/// The eSpeak NG engine checks it in its synthesis callback (on the engine's thread) and stops within
/// one audio buffer (a few milliseconds of audio).
public final class TTSCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Asks the engine to stop; safe from any thread, any number of times.
    public func cancel() { flag.store(true, ordering: .releasing) }
}
