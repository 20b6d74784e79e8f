// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A command of a listening session (`raudio play`, `raudio speak`), from any front end: a line of stdin or of an
/// IPC client (`PlayerCommandParser`), a key of the terminal player, the desktop's media controls, an app.
///
/// To add a command: add its case here, its name and argument kind to `PlayerCommand.Name`, and its
/// line in `Name.command(with:)`; both the words and the JSON forms then accept it.
public enum PlayerCommand: Sendable, Hashable {
    case play
    case pause
    case toggle
    case stop
    /// Ends the program (exit 0 after the output is flushed).
    case quit
    case seek(SeekTarget)
    /// Skips forward by the configured interval.
    case forward
    /// Skips back by the configured interval.
    case back
    /// The start of the next track (or the next resource for TTS).
    case next
    /// The start of the previous track.
    case previous
    /// Goes to a Readium locator, kept as the JSON object the user sent (compact, sorted keys), to be
    /// decoded into `Locator` by the caller.
    case go(locatorJSON: Data)
    /// Playback rate, 0.5 to 3.0.
    case speed(Double)
    /// Output volume, 0 to 2 (above 1 a boost, peak-limited).
    case volume(Double)
    /// Asks for a `state` event now.
    case status
    /// Text-to-speech: speak with this voice (an identifier or a BCP-47 tag) from the current utterance.
    case voice(String)
    /// Text-to-speech: pitch multiplier, 0.5 to 2.0 (1 = the voice's own).
    case pitch(Double)
    /// Media overlays: leaves the table, list or note being read.
    case escape
    /// Bookmarks the position being heard, with an optional note (answered by a `bookmark` event).
    case bookmark(note: String?)
    /// Lists the book's bookmarks (a `bookmarks` event).
    case bookmarks
    /// Goes to a bookmark by its id (`go bookmark:3`).
    case goToBookmark(id: Int64)
    /// Sets, moves or cancels the sleep timer.
    case sleep(SleepRequest)
    /// Moves by table-of-contents entry: `chapter next`, `chapter previous`, `chapter 3`.
    case chapter(ChapterRequest)
    /// Asks for a `toc` event: the table of contents with the current entry marked.
    case toc

    /// The command's word, as typed and as echoed in the `ack` event.
    public var name: String { kind.rawValue }

    /// Whether the command moves the position being heard (rather than how it is heard).
    public var movesThePosition: Bool {
        switch self {
        case .seek, .forward, .back, .next, .previous, .go, .escape, .goToBookmark, .chapter: true
        case .play, .pause, .toggle, .stop, .quit, .speed, .volume, .status, .voice, .pitch, .bookmark, .bookmarks, .sleep, .toc: false
        }
    }

    /// The command's name without its value.
    public var kind: Name {
        switch self {
        case .play: .play
        case .pause: .pause
        case .toggle: .toggle
        case .stop: .stop
        case .quit: .quit
        case .seek: .seek
        case .forward: .forward
        case .back: .back
        case .next: .next
        case .previous: .previous
        case .go: .go
        case .speed: .speed
        case .volume: .volume
        case .status: .status
        case .voice: .voice
        case .pitch: .pitch
        case .escape: .escape
        case .bookmark: .bookmark
        case .bookmarks: .bookmarks
        case .goToBookmark: .go
        case .sleep: .sleep
        case .chapter: .chapter
        case .toc: .toc
        }
    }
}

/// Where a `seek` goes, in seconds of publication time.
public enum SeekTarget: Sendable, Hashable {
    /// From the start of the publication; 0 or more (a time past the end is clamped by the player).
    case absolute(seconds: Double)
    /// From the current position, forward (positive) or back (negative), across tracks.
    case relative(seconds: Double)
}

/// Where `chapter` goes.
public enum ChapterRequest: Sendable, Hashable {
    case next
    /// The start of the entry being heard, or the one before when it has just begun.
    case previous
    /// Entry `n`, counted from 1 in reading order (as the `toc` event numbers them).
    case number(Int)

    public init?(parsing text: String) {
        switch text.lowercased() {
        case "next", "+": self = .next
        case "previous", "prev", "-": self = .previous
        default:
            guard let number = Int(text), number >= 1 else { return nil }
            self = .number(number)
        }
    }
}
