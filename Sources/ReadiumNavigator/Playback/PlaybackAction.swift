// SPDX-License-Identifier: GPL-3.0-or-later
/// Work the caller must do after an event, returned by `PlaybackStateMachine.handle(_:)`.
///
/// Perform the actions in the order given: for example `drainOutput` comes before the
/// `emitState(.ended)` it leads to, and `pauseOutput` before `flushOutput`.
public enum PlaybackAction<Target: Sendable>: Sendable {
    /// Make the resource at `target` ready (open the track and seek, or synthesize the utterance),
    /// then send `loaded(id)`; on failure send `error`. Keep the output as it is.
    case load(Target, PlaybackLoadID)
    /// Open the output and start rendering the loaded resource. Only sent while the output is closed.
    case startOutput
    /// Stop hearing audio, keeping what is buffered (`AudioSink.pause`).
    case pauseOutput
    /// Continue hearing audio after `pauseOutput` or a reopened output (`AudioSink.resume`).
    case resumeOutput
    /// Drop what is buffered and not yet heard (`AudioSink.flush`), after a seek.
    case flushOutput
    /// Stop rendering now, release the output and the current resource; a pending load's result
    /// will be ignored.
    case stopOutput
    /// Let what is buffered be heard to the end (`AudioSink.drain`), then release the output and the
    /// resource. Sent at the natural end of the publication while playing.
    case drainOutput
    /// The output is broken: release it and open it again, keeping the new one paused (the
    /// machine sends `resumeOutput` when playback should run); then send `outputRestored`, or
    /// `error(fatal: true, ...)` when giving up. A `stopOutput` abandons the attempt.
    case reopenOutput
    /// Continue with the next resource in reading order (gapless while playing). Sent after
    /// `endOfResource(hasNext: true)` and after a skippable error; a pending load completes at the
    /// next resource and is still answered with `loaded(id)` of that load.
    case advanceToNext
    /// Tell listeners the state changed. Sent only when it actually changed.
    case emitState(PlaybackState)
    /// Report the error passed with the event as a warning (playback goes on).
    case reportWarning
    /// Report the error passed with the event as fatal.
    case reportFatal
}

extension PlaybackAction: Equatable where Target: Equatable {}
extension PlaybackAction: Hashable where Target: Hashable {}

/// Identifies one `load` action, so that a late `loaded` for an abandoned load is ignored.
public struct PlaybackLoadID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Increases by one with every load a machine requests, starting at 1.
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "load#\(rawValue)" }
}
