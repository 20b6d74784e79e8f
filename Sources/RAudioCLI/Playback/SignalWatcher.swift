import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP (the terminal went away: treated like SIGTERM) into an
/// `AsyncStream`, so a streaming command can stop cleanly: flush the output, emit a final `state`
/// event, exit 0.
///
/// A `sigaction` handler writes the signal number to a pipe (async-signal-safe) and a thread of its
/// own ("raudio.signals") reads it: whichever thread the kernel picks runs the handler, and nothing
/// depends on the watcher object staying alive (the handlers stay installed for the rest of the
/// process, so a late signal during shutdown cannot kill it with the default action).
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
        let readEnd = SignalPipe.shared.readEnd
        for number in watched {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = raudioSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let thread = Thread {
            Thread.current.name = "raudio.signals"
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                continuation.yield(Int32(byte))
            }
            continuation.finish()
        }
        thread.start()
        // The handlers are in place: a signal held since start-up is delivered now, to the pipe.
        Self.releaseStopSignals()
    }
}

/// The self-pipe between the signal handler and the watcher's thread; made once per process.
private struct SignalPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    static let shared: SignalPipe = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("raudio: pipe() failed for the signal watcher: errno \(errno)") }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = ends[1]
        return SignalPipe(readEnd: ends[0], writeEnd: ends[1])
    }()
}

/// Written once (before any handler is installed), read by the signal handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The `sigaction` handler: only async-signal-safe calls (`write`), errno preserved.
private func raudioSignalHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
