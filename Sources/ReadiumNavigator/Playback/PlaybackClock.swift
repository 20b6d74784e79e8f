// SPDX-License-Identifier: GPL-3.0-or-later
/// A monotonic source of time in seconds, for pacing and position reports.
///
/// Navigators read time only through this protocol, so tests drive them with `ManualClock`.
public protocol PlaybackClock: Sendable {
    /// Seconds since an arbitrary origin fixed for the life of the clock; never goes backwards.
    var now: Double { get }
}

/// The real clock: `ContinuousClock` (CLOCK_BOOTTIME on Linux), counted from the clock's creation.
public struct SystemPlaybackClock: PlaybackClock {
    private let origin: ContinuousClock.Instant

    public init() {
        origin = ContinuousClock.now
    }

    public var now: Double {
        let elapsed = origin.duration(to: ContinuousClock.now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
}
