// SPDX-License-Identifier: GPL-3.0-or-later
/// A position in the items of a `RenderSource`: an item and a frame at that item's own sample rate.
public struct RenderPosition: Sendable, Hashable {
    public var item: Int
    public var frame: Int64
    public var sampleRate: Int

    public init(item: Int, frame: Int64, sampleRate: Int) {
        self.item = item
        self.frame = frame
        self.sampleRate = max(sampleRate, 1)
    }

    /// Seconds from the start of the item.
    public var seconds: Double { Double(frame) / Double(sampleRate) }
}

/// What the render thread tells its owner, in order, through `AudioRenderer.reports`.
///
/// Each report carries the `generation` of the last `load` the thread had processed when it was sent,
/// so the owner can drop reports made before a later load of its own.
public enum RenderReport: Sendable {
    /// The load with this generation is ready at `position` (possibly a later item, when the asked
    /// item could not be opened).
    case loaded(generation: UInt64, position: RenderPosition)
    /// The position being heard (written minus what the sink still holds), every ~50 ms of output,
    /// and once on pause.
    case position(generation: UInt64, RenderPosition)
    /// Decoding moved on to `item` (gaplessly, after the previous one ended or failed).
    case itemStarted(generation: UInt64, item: Int, format: PCMFormat)
    /// `item` was decoded to its end; `hasNext` tells whether another item follows.
    case itemEnded(generation: UInt64, item: Int, hasNext: Bool)
    /// An item could not be opened or broke part-way: it is skipped (non-fatal).
    case itemFailed(generation: UInt64, RenderIssue, hasNext: Bool)
    /// An item failed in a way that ends playback (`RenderIssue.endsPlayback`): rendering stopped after
    /// the output played what it held; the last position heard was reported before.
    case sourceFailed(generation: UInt64, RenderIssue)
    /// The asked item and every item after it failed to open: nothing is loaded.
    case loadFailed(generation: UInt64)
    /// The last item ended and the sink drained: the last sample was heard.
    case publicationEnded(generation: UInt64)
    /// The clip end or the `stopAfter` limit was reached and the sink drained.
    case limitReached(generation: UInt64, position: RenderPosition)
    /// The audio server went away while playing (non-fatal yet): rendering stopped at `position` (the
    /// last position heard) and the thread tries to make a new sink until `components.reconnectTimeout`.
    /// `.outputRestored` or `.outputFailed` follows.
    case outputLost(generation: UInt64, AudioSinkError, position: RenderPosition?)
    /// A new sink is open after `.outputLost`, paused at the lost position: `resume()` continues.
    case outputRestored(generation: UInt64)
    /// Rendering waits for its input (`true`: a remote track's bytes, or the next remote track still
    /// opening) or got it again (`false`).
    case buffering(generation: UInt64, Bool)
    /// The output failed (fatal): the render thread stopped rendering.
    case outputFailed(generation: UInt64, AudioSinkError)
    /// The render thread has exited and released everything; nothing follows.
    case finished
}
