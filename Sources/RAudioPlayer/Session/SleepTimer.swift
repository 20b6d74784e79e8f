// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// A session's sleep timer: a countdown of listening time after which playback fades out over its last
/// `fadeSeconds` and pauses (it does not quit: the position is saved by the pause, and `play` goes on).
/// It counts only while playback plays (`hold()` while paused or loading, `release()` when playing again).
/// Ticks four times a second while set, into the session's input stream, so that the session loop does
/// the fading and the pausing in order with everything else.
///
/// Time comes from a `PlaybackClock`: tests drive the timer with a `ManualClock` and call the session's
/// tick themselves.
public final class SleepTimer {
    /// The fade before the deadline.
    public static let fadeSeconds = 10.0

    private enum Countdown {
        case off
        /// Counting down while playing: ends at `deadline` (clock seconds).
        case running(deadline: Double)
        /// Held while not playing, with this much left.
        case held(remaining: Double)
    }

    private var countdown = Countdown.off
    /// Whether playback plays now (the countdown runs only then).
    private var isPlaying = false
    /// The remaining minutes last announced in a `sleep` event.
    public var announcedMinutes: Int?
    /// Whether the fade has begun (the volume is being lowered).
    public var isFading = false
    /// `sleep chapter`: pause when the table-of-contents entry being heard ends by playing.
    public var untilChapterEnd = false
    private let clock: any PlaybackClock
    private var ticker: Task<Void, Never>?
    private let tick: (@Sendable () -> Void)?

    /// `tick` is called four times a second while a countdown is set; nil for none (tests tick by hand).
    public init(clock: any PlaybackClock = SystemPlaybackClock(), tick: (@Sendable () -> Void)?) {
        self.clock = clock
        self.tick = tick
    }

    deinit { ticker?.cancel() }

    /// Seconds of playing until the pause; nil when no timer is set.
    public var remaining: Double? {
        switch countdown {
        case .off: nil
        case .running(let deadline): max(0, ((deadline - clock.now) * 1000).rounded() / 1000)
        case .held(let remaining): remaining
        }
    }

    public func set(after seconds: Double) {
        countdown = isPlaying ? .running(deadline: clock.now + seconds) : .held(remaining: seconds)
        announcedMinutes = nil
        isFading = false
        startTicking()
    }

    /// The most a timer may hold: 24 hours of listening, however many times it is extended.
    public static let maximumSeconds = 24 * 3600.0

    /// Moves the deadline by `seconds` (from now when no timer runs), to at most `maximumSeconds` away.
    public func extend(by seconds: Double) {
        set(after: min(Self.maximumSeconds, (remaining ?? 0) + seconds))
    }

    public func cancel() {
        countdown = .off
        untilChapterEnd = false
        isFading = false
        ticker?.cancel()
        ticker = nil
    }

    /// Follows playback: the countdown runs while `playing`, and stands still otherwise.
    public func follow(isPlaying playing: Bool) {
        guard playing != isPlaying else { return }
        isPlaying = playing
        switch countdown {
        case .running where !playing: countdown = .held(remaining: remaining ?? 0)
        case .held(let remaining) where playing: countdown = .running(deadline: clock.now + remaining)
        default: break
        }
    }

    private func startTicking() {
        guard ticker == nil, let tick else { return }
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                if Task.isCancelled { break }
                tick()
            }
        }
    }
}
