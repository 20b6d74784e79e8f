// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import ReadiumNavigator
import ReadiumShared

/// What a listener sees of a session: the book, where the reading is, the settings, the last message.
///
/// Built from the session's own JSON events (docs/events.md), so that everything that follows the
/// player (the terminal display, MPRIS) sees exactly what a program reading stdout sees. A value type:
/// `apply(_:)` folds one event in and says whether anything shown changed.
public struct PlayerStatus: Equatable, Sendable {
    /// What plays: an audiobook, an EPUB read aloud, or an EPUB's narration (media overlays).
    public enum Mode: String, Sendable { case audiobook, speech, narration }

    /// One table-of-contents entry, as `chapter` events and the session's chapter map give it.
    public struct Chapter: Equatable, Sendable {
        public var title: String
        /// Publication time of its start (audio with a timeline only).
        public var start: Double?

        public init(title: String, start: Double?) {
            (self.title, self.start) = (title, start)
        }
    }

    /// The sleep timer as the last `sleep` event left it.
    public enum Sleep: Equatable, Sendable {
        case off
        /// Pauses `remaining` seconds after `since` (a wall-clock instant in seconds).
        case after(remaining: Double, since: Double)
        case endOfChapter
    }

    public var mode: Mode
    public var title: String = ""
    public var authors: [String] = []
    public var narrators: [String] = []
    /// The publication's length in seconds, when known (audio).
    public var duration: Double?
    public var chapters: [Chapter] = []
    /// The file URL of the cover, when one was written out for others to show (MPRIS).
    public var coverURL: URL?

    public var state: PlaybackState = .loading
    /// The last locator's `locations.totalProgression` (read without decoding the whole locator: a
    /// position comes twice a second).
    public var totalProgression: Double?
    /// How many located events came (a position, a state with a locator, ...): changes with each.
    public var locatorCount = 0
    /// Index into `chapters` of the entry being heard.
    public var chapterIndex: Int?
    /// The reading-order item being heard (audiobooks) and its title.
    public var trackIndex: Int?
    public var trackTitle: String?

    public var speed: Double = 1
    public var volume: Double = 1
    public var pitch: Double?
    public var voice: String?
    public var sleep: Sleep = .off
    public var isSleepFading = false

    /// The sentence being spoken (speech and narration): the page's text, white space collapsed.
    public var sentence: String?
    /// The word being heard within `sentence`, as a range of its characters.
    public var word: Range<String.Index>?
    /// The last warning, error or confirmation, for a line of its own.
    public var message: Message?
    /// The book's bookmarks, oldest first, once a `bookmarks` event listed them (bookmarks made since are added).
    public var bookmarks: [Bookmark]?
    /// Speech: the pace of the reading, which estimates the time left.
    public var speechPace = SpeechPace()
    /// Speech: the book's words by place, once counted (`SpeechPace` estimates the words left without them).
    public var bookWords: BookWordCount?
    /// Bumped by each `Seeked`-worthy jump (a seek, `go`, a chapter change by command), for MPRIS.
    public var jumps = 0

    /// A line for the listener: a confirmation (a bookmark saved), a warning or an error.
    public struct Message: Equatable, Sendable {
        public enum Kind: Sendable { case info, warning, error }
        public var kind: Kind
        public var text: String

        public init(kind: Kind, text: String) {
            (self.kind, self.text) = (kind, text)
        }
    }

    public init(mode: Mode) {
        self.mode = mode
    }

    /// Takes the value of a `speed`, `volume` or `voice` command sent, before its `settings` event confirms it,
    /// so that a key pressed twice quickly steps twice.
    public mutating func expect(_ command: PlayerCommand) {
        switch command {
        case .speed(let value): speed = value
        case .volume(let value): volume = value
        case .voice(let value): voice = value
        default: break
        }
    }

    /// Publication time heard, in seconds: from `totalProgression` and the duration (audio only).
    public var elapsed: Double? {
        guard let duration, let progression = totalProgression else { return nil }
        return min(duration, max(0, progression * duration))
    }

    /// Time left at the current speed, in wall-clock seconds: from the duration for audio; for speech,
    /// estimated from the words left in the book (`SpeechPace`).
    public var remainingAtSpeed: Double? {
        guard let duration, let elapsed else {
            guard mode == .speech, let progression else { return nil }
            return speechPace.remaining(from: progression, speed: speed, book: bookWords)
        }
        return (duration - elapsed) / max(speed, 0.01)
    }

    /// What a display shows of the position, to the second and to a thousandth of the bar: two
    /// positions with the same value look the same.
    public var shownTime: [Int] {
        [elapsed.map { Int($0) } ?? -1, remainingAtSpeed.map { Int($0) } ?? -1, progression.map { Int($0 * 1000) } ?? -1]
    }

    /// How far through the publication, 0 to 1 (any mode: speech counts by its locators).
    public var progression: Double? {
        totalProgression.map { min(1, max(0, $0)) }
    }

    public var chapter: Chapter? { chapterIndex.flatMap { chapters.indices.contains($0) ? chapters[$0] : nil } }

    /// The end of the chapter being heard in publication time: the next entry's start, else the end.
    public var chapterEnd: Double? {
        guard let index = chapterIndex, chapters.indices.contains(index) else { return nil }
        let next = chapters[(index + 1)...].first { $0.start != nil }?.start
        return next ?? duration
    }

    public var isPlaying: Bool { state == .playing || state == .loading && wasPlaying }
    /// Whether it was playing before a `loading` (a track change, buffering): MPRIS still says Playing.
    public var wasPlaying = false
}
