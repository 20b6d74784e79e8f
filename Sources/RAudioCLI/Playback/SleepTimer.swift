// SPDX-License-Identifier: GPL-3.0-or-later
/// A session's sleep timer: a wall-clock deadline after which playback fades out over its last
/// `fadeSeconds` and pauses (it does not quit: the position is saved by the pause, and `play`
/// goes on). Ticks four times a second while set, into the session's input stream, so that the
/// session loop does the fading and the pausing in order with everything else.
final class SleepTimer {
    /// The fade before the deadline.
    static let fadeSeconds = 10.0
    private(set) var deadline: ContinuousClock.Instant?
    /// The remaining minutes last announced in a `sleep` event.
    var announcedMinutes: Int?
    /// Whether the fade has begun (the volume is being lowered).
    var isFading = false
    /// `sleep chapter`: pause when the table-of-contents entry being heard ends.
    var untilChapterEnd = false
    private var ticker: Task<Void, Never>?
    private let tick: @Sendable () -> Void

    init(tick: @escaping @Sendable () -> Void) {
        self.tick = tick
    }

    deinit { ticker?.cancel() }

    /// Seconds until the pause; nil when no timer is set.
    var remaining: Double? {
        deadline.map { max(0, Double((($0 - ContinuousClock.now) / .milliseconds(1)).rounded()) / 1000) }
    }

    func set(after seconds: Double) {
        deadline = .now + .milliseconds(Int64(seconds * 1000))
        announcedMinutes = nil
        isFading = false
        startTicking()
    }

    /// The furthest a deadline may be: 24 hours from now, however many times it is extended.
    static let maximumSeconds = 24 * 3600.0

    /// Moves the deadline by `seconds` (from now when no timer runs), to at most `maximumSeconds` away.
    func extend(by seconds: Double) {
        set(after: min(Self.maximumSeconds, (remaining ?? 0) + seconds))
    }

    func cancel() {
        deadline = nil
        untilChapterEnd = false
        isFading = false
        ticker?.cancel()
        ticker = nil
    }

    private func startTicking() {
        guard ticker == nil else { return }
        let tick = tick
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                if Task.isCancelled { break }
                tick()
            }
        }
    }
}
