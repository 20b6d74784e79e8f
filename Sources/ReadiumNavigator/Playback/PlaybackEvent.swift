// SPDX-License-Identifier: GPL-3.0-or-later
/// Something that happened to a navigator, fed to `PlaybackStateMachine.handle(_:)`.
///
/// User commands (`play`, `pause`, `toggle`, `stop`, `seek`) and reports from the caller's machinery
/// (`loaded`, `endOfResource`, `error`, `outputLost`, ...). `Target` is the caller's opaque position:
/// a track and time for the audiobook navigator, an utterance for the speech synthesizer.
/// Commands such as next track, skip forward or relative seeks are computed by the caller into a
/// `seek(target)`; speed and volume do not change the state and never reach the machine.
public enum PlaybackEvent<Target: Sendable>: Sendable {
    /// The user wants playback to run. From `idle`, `stopped`, `ended` or `failed` it starts from the
    /// machine's `start` target.
    case play
    /// The user wants playback to pause, keeping the position.
    case pause
    /// `pause` if the intent is to play, else `play`.
    case toggle
    /// The user stops playback: the resource and output are released; a later `play` starts over.
    case stop
    /// The user moves to `target`. Whether playback runs afterwards does not change (`intent`); from
    /// `idle`, `stopped`, `ended` or `failed` the target loads and then waits paused.
    case seek(Target)
    /// The load requested by the `load` action with this id is complete: the resource at the target
    /// is ready to render. A stale id (a later seek or a stop came first) is ignored.
    case loaded(PlaybackLoadID)
    /// The current resource (track, utterance) was rendered to its end. With `hasNext`, the next one
    /// follows without a gap (action `advanceToNext`); without, the publication has ended.
    case endOfResource(hasNext: Bool)
    /// The end boundary the caller set (a clip's end time, `--until`) was reached while rendering:
    /// treated as the end of the publication.
    case clipEnded
    /// Something failed. Non-fatal (a corrupt or unreadable resource): a warning is reported and the
    /// resource is skipped (`hasNext`) or the publication ends. Fatal (the output cannot be used):
    /// playback stops in `failed`.
    case error(fatal: Bool, hasNext: Bool)
    /// The output went away (audio server died). Playback waits in `loading` while the caller
    /// reopens it (action `reopenOutput`).
    case outputLost
    /// The output reopened after `outputLost`; playback continues if the intent is to play.
    case outputRestored
    /// Rendering waits for its input (a remote track's bytes, the next remote track still opening):
    /// `playing` shows `loading` until `bufferingEnded`. The output is left as it is.
    case bufferingStarted
    /// The input caught up after `bufferingStarted`: back to `playing` if nothing else changed.
    case bufferingEnded
}

extension PlaybackEvent: Equatable where Target: Equatable {}
extension PlaybackEvent: Hashable where Target: Hashable {}
