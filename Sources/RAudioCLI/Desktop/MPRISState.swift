// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// What the MPRIS server knows and last told the bus: the session's `PlayerStatus`, the clock that
/// makes `Position` fresh between position events, and which changes are still to be signalled.
///
/// Pure: events and the time come in, property values and signals to send come out.
struct MPRISState: Sendable {
    var status: PlayerStatus
    /// The Player properties last published (in `PropertiesChanged` or read at start-up).
    private var published: [String: DBusValue] = [:]
    /// The last publication time reported, the wall-clock instant it was reported, and whether it was playing.
    private var clock: (elapsed: Double, at: Double, isPlaying: Bool)?
    /// `status.jumps` when last looked at: a change means a seek, `go` or chapter command was accepted.
    private var jumpsSeen = 0
    /// A jump was accepted; `Seeked` goes out with the next position reported after it (not the
    /// `loading` state that comes first, which still says where the reading was).
    private var isSeekPending = false
    /// `Seeked`'s argument, waiting for the next publish.
    private var seekedTo: Int64?
    /// A publish job is queued on the bus thread (coalesces events arriving faster than it runs).
    var isPublishScheduled = false

    /// The larger jump between two position events (beyond what the wall clock explains) taken as a seek.
    static let discontinuity = 3.0

    init(status: PlayerStatus) {
        self.status = status
    }

    var track: MPRISTrack { MPRISTrack(status: status) }

    /// Folds one event in (see `PlayerStatus.apply`) and notes jumps for `Seeked`.
    mutating func apply(_ event: PlayerEvent, now: Double) {
        let before = status
        status.apply(event, now: now)
        if status.jumps != jumpsSeen {
            jumpsSeen = status.jumps
            isSeekPending = true
        }
        guard status.locatorCount != before.locatorCount || status.state != before.state else { return }
        guard let elapsed = status.elapsed else {
            // No time (speech), or a state without a locator: the clock stops or starts where it was.
            if let clock { self.clock = (position(seconds: clock, now: now), now, status.isPlaying) }
            return
        }
        let kind = event.kind
        // A `loading` state right after a jump still carries the position before it.
        if isSeekPending, kind != .ack, status.state != .loading || kind != .state {
            isSeekPending = false
            seekedTo = microseconds(track.relative(elapsed))
        } else if kind == .position, let clock, clock.isPlaying {
            // A jump nobody asked for through a command (a resume after the audio server came back).
            let expected = clock.elapsed + max(0, now - clock.at) * status.speed
            let moved = elapsed - clock.elapsed
            if elapsed < clock.elapsed - 1 || moved > Self.discontinuity && elapsed > expected + Self.discontinuity {
                seekedTo = microseconds(track.relative(elapsed))
            }
        }
        clock = (elapsed, now, status.isPlaying)
    }

    /// `Position` in microseconds, relative to the track: the last reported position moved on by the
    /// time since, at the current speed, while playing.
    func position(now: Double) -> Int64 {
        guard let clock else { return microseconds(status.elapsed.map(track.relative) ?? 0) }
        return microseconds(track.relative(position(seconds: clock, now: now)))
    }

    /// Publication seconds heard by `now`, from `clock`.
    private func position(seconds clock: (elapsed: Double, at: Double, isPlaying: Bool), now: Double) -> Double {
        let elapsed = clock.isPlaying ? clock.elapsed + max(0, now - clock.at) * status.speed : clock.elapsed
        return min(elapsed, status.duration ?? elapsed)
    }

    /// What to signal now: the Player properties that changed since the last call (for
    /// `PropertiesChanged`), and the position for `Seeked` after a jump. Marks them published.
    mutating func takeChanges() -> (changed: [String: DBusValue], seeked: Int64?) {
        isPublishScheduled = false
        let current = MPRISProperties.player(of: self)
        let changed = current.filter { published[$0.key] != $0.value }
        published = current
        defer { seekedTo = nil }
        return (changed, seekedTo)
    }

    /// Takes the current properties as published without signalling them (before the name is owned).
    mutating func markPublished() {
        published = MPRISProperties.player(of: self)
    }

    private func microseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * 1_000_000).rounded())
    }
}
