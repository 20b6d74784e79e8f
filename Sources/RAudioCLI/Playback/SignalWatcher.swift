// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// Turns SIGINT, SIGTERM and SIGHUP (the terminal went away: treated like SIGTERM) into an
/// `AsyncStream`, so a streaming command can stop cleanly: flush the output, emit a final `state`
/// event, exit 0.
///
/// The signals come through `SignalRelay` (a self-pipe read on a thread of its own): whichever thread
/// the kernel picks runs the handler, and nothing depends on the watcher object staying alive.
///
/// A signal can arrive while the process starts (runtime, arguments, opening the book, loading the
/// voices) before any session runs. `holdStopSignals()` blocks them first thing in `runMain`, so such
/// a signal waits instead of killing the process with the default action; a streaming command then
/// installs the process-wide watcher (`shared`), which lets them through to the pipe, where the
/// session finds them as soon as it reads its inputs. Other commands `releaseStopSignals()`: a held
/// signal then takes its default action, as it would have without raudio's handling.
final class SignalWatcher: Sendable {
    /// The signals that stop a streaming session.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The process's one watcher, created by the streaming commands before they open anything.
    static let shared = SignalWatcher()

    let signals: AsyncStream<Int32>

    /// Blocks the stop signals on the calling thread (and the threads it starts later): they stay
    /// pending, not lost. Call first thing on the main thread.
    static func holdStopSignals() {
        changeMask(SIG_BLOCK)
    }

    /// Unblocks the stop signals on the calling thread: pending ones are delivered now.
    static func releaseStopSignals() {
        changeMask(SIG_UNBLOCK)
    }

    private static func changeMask(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in stopSignals { sigaddset(&set, number) }
        pthread_sigmask(how, &set, nil)
    }

    private init(_ watched: [Int32] = SignalWatcher.stopSignals) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        signals = stream
        SignalRelay.relay(watched) { continuation.yield($0) }
        // The handlers are in place: a signal held since start-up is delivered now, to the relay.
        Self.releaseStopSignals()
    }
}
