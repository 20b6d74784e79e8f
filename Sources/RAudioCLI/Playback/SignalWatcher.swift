import Dispatch
import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP (the terminal went away: treated like SIGTERM) into an
/// `AsyncStream`, so a streaming command can stop cleanly: flush the output, emit a final `state`
/// event, exit 0.
final class SignalWatcher: @unchecked Sendable {
    let signals: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "raudio.signals")

    init(_ watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        for number in watched {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            let continuation = continuation
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
    }
}
