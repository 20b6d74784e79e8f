// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioState
/// What a key does in the terminal player: a command of the protocol, or a change of what the display shows.
enum TerminalAction: Equatable, Sendable {
    case command(PlayerCommand)
    case show(TerminalOverlay)
    /// Shows an overlay and sends the command that fills it (`bookmarks` for the bookmark list).
    case open(TerminalOverlay, asking: PlayerCommand)
    case none
}

/// The terminal player's keys (the `?` screen lists them).
///
/// A pure mapping from a key, the status and what is shown to an action, so each key is tested
/// without a terminal. Seeking keys move 10 s of audio in an audiobook and one sentence in speech.
struct TerminalKeyMap {
    /// Speech: the identifiers of the voices for the book's language, which `v` cycles through.
    var voices: [String] = []

    /// The sleep timer steps `s` cycles through: 15, 30, 60 minutes, the end of the chapter, off.
    static let sleepSteps: [SleepRequest] = [.after(seconds: 900), .after(seconds: 1800), .after(seconds: 3600), .endOfChapter, .off]

    /// Where `s` is in `sleepSteps` (-1: the timer is off).
    var sleepStep = -1

    mutating func action(for key: Key, status: PlayerStatus, overlay: TerminalOverlay) -> TerminalAction {
        switch overlay {
        case .help:
            return .show(.none)  // any key closes the help
        case .chapters(let selected):
            return chapterListAction(for: key, selected: selected, count: status.chapters.count)
        case .bookmarks(let selected):
            return bookmarkListAction(for: key, selected: selected, bookmarks: status.bookmarks ?? [])
        case .none:
            break
        }
        let isAudio = status.mode == .audiobook
        switch key {
        case .character(" "): return .command(.toggle)
        case .left: return .command(isAudio ? .seek(.relative(seconds: -10)) : .previous)
        case .right: return .command(isAudio ? .seek(.relative(seconds: 10)) : .next)
        case .up: return .command(.chapter(.previous))
        case .down: return .command(.chapter(.next))
        case .character("["): return .command(.speed(Self.stepped(status.speed, by: -0.1, in: 0.5...3)))
        case .character("]"): return .command(.speed(Self.stepped(status.speed, by: 0.1, in: 0.5...3)))
        case .character("-"), .character("_"): return .command(.volume(Self.stepped(status.volume, by: -0.1, in: 0...2)))
        case .character("+"), .character("="): return .command(.volume(Self.stepped(status.volume, by: 0.1, in: 0...2)))
        case .character("b"), .character("B"): return .command(.bookmark(note: nil))
        case .character("m"), .character("M"): return .open(.bookmarks(selected: 0), asking: .bookmarks)
        case .character("v"), .character("V"):
            guard status.mode == .speech, let voice = Self.voice(after: status.voice, in: voices) else { return .none }
            return .command(.voice(voice))
        case .character("s"), .character("S"):
            sleepStep = status.sleep == .off ? 0 : (sleepStep + 1) % Self.sleepSteps.count
            let step = Self.sleepSteps[sleepStep]
            if step == .off { sleepStep = -1 }
            return .command(.sleep(step))
        case .character("c"), .character("C"):
            guard !status.chapters.isEmpty else { return .none }
            return .show(.chapters(selected: status.chapterIndex ?? 0))
        case .character("?"), .character("h"): return .show(.help)
        case .character("q"), .character("Q"): return .command(.quit)
        default: return .none
        }
    }

    private func chapterListAction(for key: Key, selected: Int, count: Int) -> TerminalAction {
        switch key {
        case .up: return .show(.chapters(selected: max(0, selected - 1)))
        case .down: return .show(.chapters(selected: min(count - 1, selected + 1)))
        case .enter: return .command(.chapter(.number(selected + 1)))
        case .escape, .character("c"), .character("C"), .character("q"): return .show(.none)
        default: return .none
        }
    }

    private func bookmarkListAction(for key: Key, selected: Int, bookmarks: [Bookmark]) -> TerminalAction {
        switch key {
        case .up: return .show(.bookmarks(selected: max(0, selected - 1)))
        case .down: return .show(.bookmarks(selected: max(0, min(bookmarks.count - 1, selected + 1))))
        case .enter:
            guard bookmarks.indices.contains(selected) else { return .none }
            return .command(.goToBookmark(id: bookmarks[selected].id))
        case .escape, .character("m"), .character("M"), .character("q"): return .show(.none)
        default: return .none
        }
    }

    /// The voice after `current` in `voices`, round to the first; nil when there is no other.
    static func voice(after current: String?, in voices: [String]) -> String? {
        guard let index = voices.firstIndex(where: { $0.caseInsensitiveCompare(current ?? "") == .orderedSame }) else { return voices.first }
        let next = voices[(index + 1) % voices.count]
        return next == voices[index] ? nil : next
    }

    /// `value` moved by `step`, on the grid of `step` (to the thousandth), kept in `range`.
    static func stepped(_ value: Double, by step: Double, in range: ClosedRange<Double>) -> Double {
        let moved = ((value + step) / abs(step)).rounded() * abs(step)
        return (min(range.upperBound, max(range.lowerBound, moved)) * 1000).rounded() / 1000
    }

    /// The `?` screen.
    static func helpLines(for mode: PlayerStatus.Mode) -> [StyledLine] {
        let move = mode == .audiobook ? "back / forward 10 s" : "previous / next sentence"
        var rows: [(String, String)] = [
            ("space", "pause / play"), ("← →", move), ("↑ ↓", "previous / next chapter"), ("c", "chapter list"),
            ("[ ]", "speed − / +"), ("- +", "volume − / +"), ("b", "bookmark this place"), ("m", "bookmark list"),
            ("s", "sleep timer: 15, 30, 60 min, end of chapter, off"), ("?", "this help (any key closes it)"), ("q", "quit"),
        ]
        if mode == .speech { rows.insert(("v", "next voice for the book's language"), at: rows.count - 2) }
        return [StyledLine("Keys", .bold)] + rows.map { StyledLine([Span(text: DisplayWidth.padded($0.0, to: 7), style: .accent), Span(text: $0.1)]) }
    }
}
