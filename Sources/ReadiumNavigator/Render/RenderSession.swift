// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The plumbing every navigator shares between its `PlaybackStateMachine` and its `AudioRenderer`:
/// performs the machine's actions on the renderer, turns the render thread's reports into machine
/// events, emits the common events (state, warnings, errors) and closes the render thread.
///
/// Not an actor and not `Sendable`: it is owned by one navigator actor (its `RenderSessionOwner`),
/// which stays the isolation domain. Methods that call back into the owner take it as an `isolated`
/// parameter, so they run on the owner's actor; the owner supplies only what differs between
/// navigators (what a target loads, what a heard position means, which issue ends playback).
final class RenderSession<Target: Sendable, Event: NavigatorIssueEvent> {
    /// The shared play/pause/seek/stop/end logic.
    var machine: PlaybackStateMachine<Target>
    /// The render thread's front; the owner may call its setters (speed, volume) directly.
    let renderer: AudioRenderer
    /// The owner's public event stream; finishes when `close` returns.
    let events: AsyncStream<Event>
    let continuation: AsyncStream<Event>.Continuation

    /// The generation (load id) of the last load sent to the renderer; older reports are dropped.
    private(set) var generation: UInt64 = 0
    /// The issue the next `reportWarning`/`reportFatal` action reports.
    var pendingIssue: NavigatorIssue?
    /// `close` was called: reports are no longer turned into events (but a fatal output error is).
    private(set) var isClosed = false
    /// The render thread sent `.finished`: nothing more is emitted.
    private(set) var isRendererFinished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Makes the event stream and the machine (idle, `play` loads `start`), and sets the renderer's
    /// `stopAfter` limit (seconds of media audio; nil: none).
    init(renderer: AudioRenderer, start: Target, stopAfter: Double?) {
        self.renderer = renderer
        machine = PlaybackStateMachine(start: start)
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        if let stopAfter { renderer.setStopAfter(max(stopAfter, 0)) }
    }

    /// Yields `event` on `events`, unless the render thread has finished (after `close`).
    func emit(_ event: Event) {
        guard !isRendererFinished else { return }
        continuation.yield(event)
    }

    /// Feeds `event` to the machine and performs the actions it returns, in order.
    func handle<Owner: RenderSessionOwner>(_ event: PlaybackEvent<Target>, owner: isolated Owner)
    where Owner.Target == Target, Owner.Event == Event {
        for action in machine.handle(event) {
            perform(action, owner: owner)
        }
    }

    private func perform<Owner: RenderSessionOwner>(_ action: PlaybackAction<Target>, owner: isolated Owner)
    where Owner.Target == Target, Owner.Event == Event {
        switch action {
        case .load(let target, let id):
            generation = id.rawValue
            let start = owner.willLoad(target)
            renderer.load(item: start.item, seconds: start.seconds, endSeconds: start.endSeconds, generation: id.rawValue)
        case .startOutput: renderer.start()
        case .pauseOutput: renderer.pause()
        case .resumeOutput: renderer.resume()
        case .flushOutput: renderer.flush()
        case .stopOutput: renderer.stop()
        case .drainOutput: renderer.release()
        case .reopenOutput, .advanceToNext:
            // The render thread reconnects by itself after `.outputLost` (RenderLoop+Reconnection)
            // and continues with the next item by itself, gaplessly.
            break
        case .emitState(let state):
            emit(owner.stateChangedEvent(state))
        case .reportWarning:
            if let issue = pendingIssue { emit(.warning(issue)) }
            pendingIssue = nil
        case .reportFatal:
            if let issue = pendingIssue { emit(.error(issue)) }
            pendingIssue = nil
        }
    }

    /// Marks the render thread finished and wakes the `close` calls waiting for it.
    func rendererDidFinish() {
        isRendererFinished = true
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters = []
    }

    /// Shuts the render thread down (once; `beforeShutdown` runs just before), waits for its
    /// `.finished` report and finishes `events`. Idempotent; runs on the caller's actor.
    func close(isolation: isolated (any Actor)? = #isolation, beforeShutdown: () -> Void = {}) async {
        if !isClosed {
            isClosed = true
            beforeShutdown()
            renderer.shutdown()
        }
        if !isRendererFinished {
            await withCheckedContinuation { finishWaiters.append($0) }
        }
        continuation.finish()
    }
}
