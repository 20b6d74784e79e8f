// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer

/// The properties of the two MPRIS interfaces, as D-Bus values computed from the state.
///
/// `Position` is left out of `player(of:)`: the spec forbids it in `PropertiesChanged` (clients
/// extrapolate from `Rate` and are told of jumps by `Seeked`); it is read fresh on `Get`.
enum MPRISProperties {
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let minimumRate = 0.5
    static let maximumRate = 3.0
    static let maximumVolume = 2.0

    /// `org.mpris.MediaPlayer2`: constant.
    static let root: [String: DBusValue] = [
        "CanQuit": .boolean(true),
        "CanRaise": .boolean(false),
        "HasTrackList": .boolean(false),
        "Identity": .string("raudio"),
        "SupportedUriSchemes": .strings([]),
        "SupportedMimeTypes": .strings([]),
    ]

    /// `org.mpris.MediaPlayer2.Player`, all but `Position`.
    static func player(of state: MPRISState) -> [String: DBusValue] {
        let status = state.status
        let track = state.track
        let hasChapters = !status.chapters.isEmpty
        return [
            "PlaybackStatus": .string(playbackStatus(status)),
            "Rate": .double(status.speed),
            "Volume": .double(status.volume),
            "MinimumRate": .double(minimumRate),
            "MaximumRate": .double(maximumRate),
            "Metadata": .dictionary(metadata(status, track: track)),
            // Without chapters, Next and Previous move by track (audio) or utterance (speech).
            "CanGoNext": .boolean(!hasChapters || (status.chapterIndex ?? -1) < status.chapters.count - 1),
            "CanGoPrevious": .boolean(true),
            "CanPlay": .boolean(true),
            "CanPause": .boolean(true),
            "CanSeek": .boolean(canSeek(status, track: track)),
            "CanControl": .boolean(true),
        ]
    }

    /// `Playing` also through a `loading` that follows playing (a track change, buffering).
    static func playbackStatus(_ status: PlayerStatus) -> String {
        if status.isPlaying { return "Playing" }
        return status.state == .paused ? "Paused" : "Stopped"
    }

    /// Audio with a known length can seek; speech has no timeline.
    static func canSeek(_ status: PlayerStatus, track: MPRISTrack) -> Bool {
        status.mode != .speech && status.duration != nil && track.length != nil
    }

    static func metadata(_ status: PlayerStatus, track: MPRISTrack) -> [String: DBusValue] {
        var metadata: [String: DBusValue] = ["mpris:trackid": .objectPath(track.id)]
        guard track.id != MPRISTrack.noTrack else { return metadata }
        if let length = track.length { metadata["mpris:length"] = .int64(Int64((length * 1_000_000).rounded())) }
        metadata["xesam:title"] = .string(track.title)
        if !status.title.isEmpty { metadata["xesam:album"] = .string(status.title) }
        if !status.authors.isEmpty { metadata["xesam:artist"] = .strings(status.authors) }
        if let cover = status.coverURL { metadata["mpris:artUrl"] = .string(cover.absoluteString) }
        return metadata
    }
}
