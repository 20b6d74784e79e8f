// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What an `AudioNavigator` tells its listeners, in order, on `events`.
public enum AudioNavigatorEvent: Sendable {
    /// The state changed (emitted on every change), with the position.
    case stateChanged(PlaybackState, Locator)
    /// Every `positionInterval` of media time while playing.
    case position(Locator)
    /// The track being heard changed.
    case trackChanged(index: Int, link: Link, Locator)
    /// Non-fatal: a track skipped, a clip clamped...
    case warning(NavigatorIssue)
    /// `issue.fatal` tells whether playback stopped.
    case error(NavigatorIssue)
}

/// Settings of an `AudioNavigator`.
public struct AudioNavigatorConfiguration: Sendable {
    /// 0.5...3.0, pitch preserved.
    public var speed: Double = 1
    /// 0...1.
    public var volume: Double = 1
    public var skipForwardInterval: Double = 30
    public var skipBackwardInterval: Double = 10
    /// Seconds of MEDIA time between `.position` events.
    public var positionInterval: Double = 0.5
    /// `--duration`: seconds of audio, then stop (state stopped).
    public var stopAfter: Double? = nil

    public init(
        speed: Double = 1, volume: Double = 1, skipForwardInterval: Double = 30, skipBackwardInterval: Double = 10,
        positionInterval: Double = 0.5, stopAfter: Double? = nil
    ) {
        self.speed = speed
        self.volume = volume
        self.skipForwardInterval = skipForwardInterval
        self.skipBackwardInterval = skipBackwardInterval
        self.positionInterval = positionInterval
        self.stopAfter = stopAfter
    }
}
