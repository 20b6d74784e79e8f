// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// What a listener sees of a session: the book, where the reading is, the settings, the last message.
///
/// Built from the session's own JSON events (docs/events.md), so that everything that follows the
/// player (the terminal display, MPRIS) sees exactly what a program reading stdout sees. A value type:
/// `apply(_:)` folds one event in and says whether anything shown changed.
struct PlayerStatus: Equatable, Sendable {
    /// What plays: an audiobook, an EPUB read aloud, or an EPUB's narration (media overlays).
    enum Mode: String, Sendable { case audiobook, speech, narration }

    /// One table-of-contents entry, as `chapter` events and the session's chapter map give it.
    struct Chapter: Equatable, Sendable {
        var title: String
        /// Publication time of its start (audio with a timeline only).
        var start: Double?
    }

    /// The sleep timer as the last `sleep` event left it.
    enum Sleep: Equatable, Sendable {
        case off
        /// Pauses `remaining` seconds after `since` (a wall-clock instant in seconds).
        case after(remaining: Double, since: Double)
        case endOfChapter
    }

    var mode: Mode
    var title: String = ""
    var authors: [String] = []
    var narrators: [String] = []
    /// The publication's length in seconds, when known (audio).
    var duration: Double?
    var chapters: [Chapter] = []
    /// The file URL of the cover, when one was written out for others to show (MPRIS).
    var coverURL: URL?

    var state: PlaybackState = .loading
    /// The last locator's `locations.totalProgression` (read without decoding the whole locator: a
    /// position comes twice a second).
    var totalProgression: Double?
    /// How many located events came (a position, a state with a locator, ...): changes with each.
    var locatorCount = 0
    /// Index into `chapters` of the entry being heard.
    var chapterIndex: Int?
    /// The reading-order item being heard (audiobooks) and its title.
    var trackIndex: Int?
    var trackTitle: String?

    var speed: Double = 1
    var volume: Double = 1
    var pitch: Double?
    var voice: String?
    var sleep: Sleep = .off
    var isSleepFading = false

    /// The sentence being spoken (speech and narration): the page's text, white space collapsed.
    var sentence: String?
    /// The word being heard within `sentence`, as a range of its characters.
    var word: Range<String.Index>?
    /// The last warning, error or confirmation, for a line of its own.
    var message: Message?
    /// Bumped by each `Seeked`-worthy jump (a seek, `go`, a chapter change by command), for MPRIS.
    var jumps = 0

    /// A line for the listener: a confirmation (a bookmark saved), a warning or an error.
    struct Message: Equatable, Sendable {
        enum Kind: Sendable { case info, warning, error }
        var kind: Kind
        var text: String
    }

    init(mode: Mode) {
        self.mode = mode
    }

    /// Takes the value of a `speed` or `volume` command sent, before its `settings` event confirms it,
    /// so that a key pressed twice quickly steps twice.
    mutating func expect(_ command: PlayerCommand) {
        switch command {
        case .speed(let value): speed = value
        case .volume(let value): volume = value
        default: break
        }
    }

    /// Publication time heard, in seconds: from `totalProgression` and the duration (audio only).
    var elapsed: Double? {
        guard let duration, let progression = totalProgression else { return nil }
        return min(duration, max(0, progression * duration))
    }

    /// Time left at the current speed, in wall-clock seconds.
    var remainingAtSpeed: Double? {
        guard let duration, let elapsed else { return nil }
        return (duration - elapsed) / max(speed, 0.01)
    }

    /// What a display shows of the position, to the second and to a thousandth of the bar: two
    /// positions with the same value look the same.
    var shownTime: [Int] {
        [elapsed.map { Int($0) } ?? -1, remainingAtSpeed.map { Int($0) } ?? -1, progression.map { Int($0 * 1000) } ?? -1]
    }

    /// How far through the publication, 0 to 1 (any mode: speech counts by its locators).
    var progression: Double? {
        totalProgression.map { min(1, max(0, $0)) }
    }

    var chapter: Chapter? { chapterIndex.flatMap { chapters.indices.contains($0) ? chapters[$0] : nil } }

    /// The end of the chapter being heard in publication time: the next entry's start, else the end.
    var chapterEnd: Double? {
        guard let index = chapterIndex, chapters.indices.contains(index) else { return nil }
        let next = chapters[(index + 1)...].first { $0.start != nil }?.start
        return next ?? duration
    }

    var isPlaying: Bool { state == .playing || state == .loading && wasPlaying }
    /// Whether it was playing before a `loading` (a track change, buffering): MPRIS still says Playing.
    var wasPlaying = false
}
