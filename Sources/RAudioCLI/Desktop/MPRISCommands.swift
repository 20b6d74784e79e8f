// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What the MPRIS methods and writable properties ask of the player, in the words stdin takes
/// (`PlayerCommandParser` reads them; the session answers with `ack` or `error` events as for stdin).
enum MPRISCommands {
    /// `Next` / `Previous`: by table-of-contents entry, else by track (audio) or utterance (speech).
    static func next(_ status: PlayerStatus) -> String {
        status.chapters.isEmpty ? "next" : "chapter next"
    }

    static func previous(_ status: PlayerStatus) -> String {
        status.chapters.isEmpty ? "previous" : "chapter previous"
    }

    /// `Seek(offset)`, relative to the track: ignored without `CanSeek`; before the track's start it goes
    /// to the start, past its end it acts as `Next` (the spec's rules).
    static func seek(by microseconds: Int64, state: MPRISState, now: Double) -> String? {
        let track = state.track
        guard MPRISProperties.canSeek(state.status, track: track) else { return nil }
        let offset = Double(microseconds) / 1_000_000
        let target = Double(state.position(now: now)) / 1_000_000 + offset
        if target < 0 { return "seek \(seconds(track.start))" }
        if let length = track.length, target > length { return next(state.status) }
        let rounded = (offset * 1000).rounded() / 1000
        guard rounded != 0 else { return nil }
        return rounded > 0 ? "seek +\(seconds(rounded))" : "seek -\(seconds(-rounded))"
    }

    /// `SetPosition(trackId, position)`: an absolute seek within the track; ignored when `trackId` is
    /// not the current track or the position is outside it (the spec's rules).
    static func setPosition(trackID: String, microseconds: Int64, state: MPRISState) -> String? {
        let track = state.track
        guard MPRISProperties.canSeek(state.status, track: track), trackID == track.id, microseconds >= 0 else { return nil }
        let position = Double(microseconds) / 1_000_000
        if let length = track.length, position > length { return nil }
        return "seek \(seconds(track.start + position))"
    }

    /// `Rate` set: 0 pauses (the spec's rule), other values are kept in the player's range.
    static func rate(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value <= 0 { return "pause" }
        return "speed \(seconds(min(MPRISProperties.maximumRate, max(MPRISProperties.minimumRate, value))))"
    }

    /// `Volume` set: kept in 0...2 (negative is 0, as the spec says).
    static func volume(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        return "volume \(seconds(min(MPRISProperties.maximumVolume, max(0, value))))"
    }

    /// A number as stdin takes it, to the millisecond (never in exponent notation).
    static func seconds(_ value: Double) -> String {
        ((value * 1000).rounded() / 1000).formatted
    }
}
