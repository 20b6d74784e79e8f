// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A navigator actor that owns a `RenderSession`: what differs between the audiobook navigator, the
/// speech synthesizer and the media-overlay navigator. Every requirement runs on the owner's actor,
/// called by the session while it handles a report or performs an action.
protocol RenderSessionOwner: Actor {
    associatedtype Target: Sendable
    associatedtype Event: NavigatorIssueEvent

    var session: RenderSession<Target, Event> { get }
    /// The locator an output error points at: the position being heard, if any.
    var issueLocator: Locator? { get }
    /// The event announcing `state` (with the owner's current position).
    func stateChangedEvent(_ state: PlaybackState) -> Event
    /// Called when the machine asks to load `target`, before the renderer is told: resets what the
    /// owner tracks of the position and returns where the renderer opens.
    func willLoad(_ target: Target) -> RenderStart
    /// The render thread heard `position` (the current load's), reported by `report`.
    func didHear(_ position: RenderPosition, in report: HeardPositionReport)
    /// Decoding moved on to `item` (current load only). Does nothing by default.
    func didStart(item: Int)
    /// The warning for an item the renderer skips, or nil to ignore the report (no state change).
    func skippedItemIssue(_ issue: RenderIssue) -> NavigatorIssue?
    /// After a load found nothing playable from its target: the fatal issue when nothing of the
    /// publication could ever be played, nil when playback merely reached the end of what could.
    func nothingPlayableIssue() -> NavigatorIssue?
    /// Called before each report (not `.finished`, nor any after `close`) is handled. Does nothing by default.
    func willHandle(_ report: RenderReport)
    /// The last item was heard to its end; called before the machine ends. Does nothing by default.
    func willEndPublication()
    /// When the renderer ran past the last item: the fatal issue when its end was not heard after all
    /// (the last item was skipped), nil (the default) for an end to announce.
    func unheardEndIssue() -> NavigatorIssue?
    /// The fatal issue for an item failure that ends playback (`RenderIssue.endsPlayback`); by default
    /// the issue itself at `issueLocator`.
    func endingIssue(_ issue: RenderIssue) -> NavigatorIssue
    /// Called off the actor before `report` is handed to `receive(_:)`: may suspend until the owner
    /// can make sense of it (the speech synthesizer waits for the words of an utterance still being
    /// synthesized). Later reports wait behind it, in order. Returns at once by default.
    nonisolated func prepare(for report: RenderReport) async
}

extension RenderSessionOwner {
    func didStart(item: Int) {}
    func willHandle(_ report: RenderReport) {}
    func willEndPublication() {}
    func unheardEndIssue() -> NavigatorIssue? { nil }
    func endingIssue(_ issue: RenderIssue) -> NavigatorIssue { issue.fatalError(at: issueLocator) }
    nonisolated func prepare(for report: RenderReport) async {}

    /// Feeds `event` to the state machine and performs its actions.
    func handle(_ event: PlaybackEvent<Target>) {
        session.handle(event, owner: self)
    }

    /// Handles one report of the render thread (in order).
    func receive(_ report: RenderReport) {
        session.receive(report, owner: self)
    }

    /// Yields `event` to listeners, unless the render thread has finished.
    func emit(_ event: Event) {
        session.emit(event)
    }

    /// Starts the task that hands `reports` to `receive(_:)`, in order (each after `prepare(for:)`),
    /// until the stream ends or the owner is released. Call once, at the end of init.
    nonisolated func receiveReports(from reports: AsyncStream<RenderReport>) {
        Task { [weak self] in
            for await report in reports {
                guard let self else { return }
                await self.prepare(for: report)
                await self.receive(report)
            }
        }
    }
}

/// Where the renderer opens for a load: an item, seconds into it, and where the output ends (a clip).
struct RenderStart: Sendable, Hashable {
    var item: Int
    var seconds: Double
    var endSeconds: Double?
}

/// Which render report carried a heard position, telling the owner what the position means.
enum HeardPositionReport: Sendable, Hashable {
    /// A load is ready at the position (nothing is heard yet).
    case loaded
    /// Playback reached the position (the periodic `.position` report while active).
    case playing
    /// A clip end or the `stopAfter` limit was heard; playback stops there.
    case limitReached
    /// The output was lost after hearing up to the position.
    case outputLost
}

/// An event type with the two cases a `RenderSession` emits by itself (enum cases satisfy these).
protocol NavigatorIssueEvent: Sendable {
    static func warning(_ issue: NavigatorIssue) -> Self
    static func error(_ issue: NavigatorIssue) -> Self
}
