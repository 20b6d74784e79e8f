// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// What the MPRIS methods and writable properties ask of the player (the session answers with `ack` or
/// `error` events as for stdin).
enum MPRISCommands {
    /// `Next` / `Previous`: by table-of-contents entry, else by track (audio) or utterance (speech).
    static func next(_ status: PlayerStatus) -> PlayerCommand {
        status.chapters.isEmpty ? .next : .chapter(.next)
    }

    static func previous(_ status: PlayerStatus) -> PlayerCommand {
        status.chapters.isEmpty ? .previous : .chapter(.previous)
    }

    /// `Seek(offset)`, relative to the track: ignored without `CanSeek`; before the track's start it goes
    /// to the start, past its end it acts as `Next` (the spec's rules).
    static func seek(by microseconds: Int64, state: MPRISState, now: Double) -> PlayerCommand? {
        let track = state.track
        guard MPRISProperties.canSeek(state.status, track: track) else { return nil }
        let offset = Double(microseconds) / 1_000_000
        let target = Double(state.position(now: now)) / 1_000_000 + offset
        if target < 0 { return .seek(.absolute(seconds: milliseconds(track.start))) }
        if let length = track.length, target > length { return next(state.status) }
        let rounded = (offset * 1000).rounded() / 1000
        guard rounded != 0 else { return nil }
        return .seek(.relative(seconds: rounded))
    }

    /// `SetPosition(trackId, position)`: an absolute seek within the track; ignored when `trackId` is
    /// not the current track or the position is outside it (the spec's rules).
    static func setPosition(trackID: String, microseconds: Int64, state: MPRISState) -> PlayerCommand? {
        let track = state.track
        guard MPRISProperties.canSeek(state.status, track: track), trackID == track.id, microseconds >= 0 else { return nil }
        let position = Double(microseconds) / 1_000_000
        if let length = track.length, position > length { return nil }
        return .seek(.absolute(seconds: milliseconds(track.start + position)))
    }

    /// `Rate` set: 0 pauses (the spec's rule), other values are kept in the player's range.
    static func rate(_ value: Double) -> PlayerCommand? {
        guard value.isFinite else { return nil }
        if value <= 0 { return .pause }
        return .speed(milliseconds(min(MPRISProperties.maximumRate, max(MPRISProperties.minimumRate, value))))
    }

    /// `Volume` set: kept in 0...2 (negative is 0, as the spec says).
    static func volume(_ value: Double) -> PlayerCommand? {
        guard value.isFinite else { return nil }
        return .volume(milliseconds(min(MPRISProperties.maximumVolume, max(0, value))))
    }

    /// `value` to the thousandth (a millisecond of seek, a thousandth of speed or volume).
    static func milliseconds(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
