// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What the store remembers of one book: where it was left, when, and its settings.
public struct BookRecord: Sendable, Equatable {
    /// `BookIdentity.key(for:)`.
    public var key: String
    public var title: String
    /// The path it was last opened from.
    public var path: String
    /// What last played it: `play` (an audiobook), `speak` (text-to-speech) or `narration` (media overlays).
    public var mode: String
    /// The last position, as Readium Locator JSON: an audio locator for `play`, a text locator (with
    /// its quote) for `speak` and `narration`.
    public var locator: String?
    /// Narration: the position in the narration's audio, as Locator JSON.
    public var audioLocator: String?
    /// The position in the whole publication, 0 to 1, when known.
    public var progression: Double?
    /// When it was last opened and when its position was last saved (seconds since 1970).
    public var lastOpened: Double
    public var savedAt: Double?
    /// Whether it was played to its end (a finished book starts over).
    public var finished: Bool
    public var speed: Double?
    public var volume: Double?
    public var voice: String?
    public var pitch: Double?

    public init(key: String, title: String, path: String, mode: String, lastOpened: Double) {
        self.key = key
        self.title = title
        self.path = path
        self.mode = mode
        self.lastOpened = lastOpened
        finished = false
    }
}

/// A position to save.
public struct SavedPosition: Sendable, Equatable {
    public var locator: String
    public var audioLocator: String?
    public var progression: Double?
    public var finished: Bool

    public init(locator: String, audioLocator: String? = nil, progression: Double? = nil, finished: Bool = false) {
        self.locator = locator
        self.audioLocator = audioLocator
        self.progression = progression
        self.finished = finished
    }
}

/// Settings remembered per book; nil leaves a setting as it was.
public struct BookSettings: Sendable, Equatable {
    public var speed: Double?
    public var volume: Double?
    public var voice: String?
    public var pitch: Double?

    public init(speed: Double? = nil, volume: Double? = nil, voice: String? = nil, pitch: Double? = nil) {
        self.speed = speed
        self.volume = volume
        self.voice = voice
        self.pitch = pitch
    }
}

/// A place in a book the listener marked.
public struct Bookmark: Sendable, Equatable {
    /// Unique in the store; what `go bookmark:ID` takes.
    public var id: Int64
    /// Readium Locator JSON: an audio locator, or a text locator with its quote.
    public var locator: String
    public var note: String?
    /// Seconds since 1970.
    public var created: Double
}
