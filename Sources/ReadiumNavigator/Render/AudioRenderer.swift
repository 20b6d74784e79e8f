// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumShared

/// Plays the items of a `RenderSource` into one `AudioSink`, gaplessly, on a thread it owns.
///
/// The thread ("raudio.render") owns the decoders, the speed processor, the resamplers and the sink
/// (made on that thread by `components.makeSink`). The methods here only queue commands (a `Locked`
/// queue and a semaphore) and return at once; they may be called from any thread or actor. What
/// happens comes back, in order, on `reports`. Shared by the audiobook navigator and the speech
/// synthesizer: it plays "items", whatever produces their PCM.
public final class AudioRenderer: Sendable {
    /// What the render thread reports. Ends after `.finished`.
    public let reports: AsyncStream<RenderReport>
    private let inbox: RenderInbox

    /// Starts the render thread, which makes the sink at once.
    ///
    /// `positionReportInterval` is how much media time (seconds) passes between `.position` reports:
    /// each report wakes the consumer, so a navigator asks only for the granularity it needs (an
    /// audiobook half its position-event interval; speech about a word).
    public init(
        source: any RenderSource, components: AudioComponents, speed: Double = 1, volume: Double = 1,
        positionReportInterval: Double = 0.05
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: RenderReport.self)
        reports = stream
        inbox = RenderInbox()
        let loop = RenderLoop(source: source, components: components, inbox: inbox, reports: continuation,
                              speed: speed, volume: volume, positionReportInterval: positionReportInterval)
        BlockingWork.startThread(named: "raudio.render") { loop.run() }
    }

    deinit {
        inbox.send(.shutdown)
    }

    /// Opens `item` (or, if it cannot be opened, the next one that can) at `seconds`, without
    /// starting the output; reports `.loaded(generation:)`. `endSeconds` ends the output there (a clip).
    public func load(item: Int, seconds: Double, endSeconds: Double? = nil, generation: UInt64) {
        inbox.send(.load(item: item, seconds: seconds, endSeconds: endSeconds, generation: generation))
    }

    /// Opens the output (with the first loaded item's format, once) and renders.
    public func start() { inbox.send(.start) }
    /// Stops writing and pauses the sink, keeping what it holds.
    public func pause() { inbox.send(.pause) }
    /// Resumes the sink and writing.
    public func resume() { inbox.send(.resume) }
    /// Drops what the sink and the processors hold (after a seek).
    public func flush() { inbox.send(.flush) }
    /// Stops rendering, drops buffered audio and closes the decoders. The sink stays open.
    public func stop() { inbox.send(.stop) }
    /// Closes the decoders after a natural end (the sink has drained).
    public func release() { inbox.send(.release) }
    /// Changes the speed (clamped to 0.5...3.0) while playing.
    public func setSpeed(_ speed: Double) { inbox.send(.setSpeed(speed)) }
    /// Changes the gain (0...1) while playing.
    public func setVolume(_ volume: Double) { inbox.send(.setVolume(volume)) }
    /// Ends the output after `seconds` more of media audio (nil: no limit); counts from now.
    public func setStopAfter(_ seconds: Double?) { inbox.send(.setStopAfter(seconds)) }
    /// Stops everything, closes the sink (completing a WAV file) and ends the thread; `.finished` follows.
    public func shutdown() { inbox.send(.shutdown) }
}

/// The command queue between the owner and the render thread: a `Locked` queue and a semaphore.
final class RenderInbox: Sendable {
    private let queue = Locked<[RenderCommand]>([])
    private let semaphore = DispatchSemaphore(value: 0)

    func send(_ command: RenderCommand) {
        queue.withLock { $0.append(command) }
        semaphore.signal()
    }

    /// The queued commands, or nil when there are none (no allocation then).
    func take() -> [RenderCommand]? {
        queue.withLock { queue in
            guard !queue.isEmpty else { return nil }
            let commands = queue
            queue.removeAll(keepingCapacity: true)
            return commands
        }
    }

    /// Blocks the render thread until a command arrives.
    func wait() {
        semaphore.wait()
    }

    /// Blocks the render thread until a command arrives or `seconds` passed.
    func wait(timeout seconds: Double) {
        _ = semaphore.wait(timeout: .now() + seconds)
    }

    var isEmpty: Bool { queue.withLock { $0.isEmpty } }
}
