// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A clock that moves only when told: the deterministic stand-in for `SystemPlaybackClock` in tests.
///
/// Safe to read and advance from any thread.
public final class ManualClock: PlaybackClock {
    private let seconds: Locked<Double>

    /// Makes a clock reading `start` seconds.
    public init(start: Double = 0) {
        seconds = Locked(start)
    }

    public var now: Double {
        seconds.withLock { $0 }
    }

    /// Moves the clock forward by `interval` seconds; a negative or non-finite interval is ignored,
    /// so the clock stays monotonic.
    public func advance(by interval: Double) {
        guard interval.isFinite, interval > 0 else { return }
        seconds.withLock { $0 += interval }
    }
}
