// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Sleeps the writing thread so that audio written keeps the pace of the clock (`--realtime`).
///
/// The WAV and null sinks call `didWrite(frames:)` after each write; the pacer lets the writer run at most
/// `lead` ahead of the audio's timeline, like a sound card's buffer would. Pure Swift, blocking
/// (`Thread.sleep`): call it on the render thread, never on the cooperative pool. Not thread-safe.
public final class RealtimePacer {
    /// How far ahead of the clock the writer may run.
    public let lead: Duration
    private let clock = ContinuousClock()
    private var sampleRate = 44_100
    /// When frame 0 was (or would have been) heard; nil until the first write or after a reset.
    private var origin: ContinuousClock.Instant?
    private var framesWritten: Int64 = 0
    private var pausedAt: ContinuousClock.Instant?

    public init(lead: Duration = .milliseconds(200)) {
        self.lead = lead
    }

    /// Starts a new timeline at `sampleRate` (a format change or a new stream).
    public func start(sampleRate: Int) {
        self.sampleRate = max(sampleRate, 1)
        origin = nil
        framesWritten = 0
        pausedAt = nil
    }

    /// Accounts for `frames` just written and sleeps while the writer is more than `lead` ahead.
    public func didWrite(frames: Int) {
        let now = clock.now
        if origin == nil { origin = now }
        if let pausedAt { resumeTimeline(from: pausedAt, at: now) }
        framesWritten += Int64(frames)
        let audioTime = Duration.seconds(Double(framesWritten) / Double(sampleRate))
        let due = origin! + audioTime - lead
        if due > now { Thread.sleep(forTimeInterval: Self.seconds(due - now)) }
    }

    /// Stops the timeline: time spent paused does not count.
    public func pause() {
        if pausedAt == nil, origin != nil { pausedAt = clock.now }
    }

    /// Restarts the timeline where `pause()` stopped it.
    public func resume() {
        if let pausedAt { resumeTimeline(from: pausedAt, at: clock.now) }
    }

    private func resumeTimeline(from pausedAt: ContinuousClock.Instant, at now: ContinuousClock.Instant) {
        origin = origin.map { $0 + (now - pausedAt) }
        self.pausedAt = nil
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
