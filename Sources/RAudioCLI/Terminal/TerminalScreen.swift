// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumNavigator
import ReadiumShared

/// What the terminal player shows over the player's status, when asked.
enum TerminalOverlay: Equatable, Sendable {
    case none
    case help
    /// The chapter list, the entry under the cursor at `selected`.
    case chapters(selected: Int)
    /// The book's bookmarks (`m`), the entry under the cursor at `selected`; empty until the `bookmarks` event came.
    case bookmarks(selected: Int)
}

/// Lays out one frame of the terminal player from a `PlayerStatus`: a pure function of the status,
/// the size and the time, so it can be tested without a terminal.
///
/// From the top: the title, the author and narrator, the chapter, the state with elapsed / total and
/// the time left at the current speed, a progress bar, the settings (speed, volume, sleep timer,
/// voice); for speech, the sentence being spoken with the word being heard highlighted; at the
/// bottom the last warning on a line of its own and a reminder of the keys.
struct TerminalScreen {
    var status: PlayerStatus
    var columns: Int
    var rows: Int
    var overlay: TerminalOverlay = .none
    var now: Double = Date().timeIntervalSince1970

    /// Whether the frame is laid out for a narrow window (under 60 columns): shorter words.
    private var isNarrow: Bool { columns < 60 }

    func lines() -> [StyledLine] {
        guard rows > 0, columns > 0 else { return [] }
        var top = header()
        let bottom = footer()
        let bodyRows = max(0, rows - top.count - bottom.count)
        switch overlay {
        case .none: top += body(rows: bodyRows)
        case .help: top += fitted(TerminalKeyMap.helpLines(for: status.mode), rows: bodyRows)
        case .chapters(let selected): top += chapterList(selected: selected, rows: bodyRows)
        case .bookmarks(let selected): top += bookmarkList(selected: selected, rows: bodyRows)
        }
        let padding = max(0, rows - top.count - bottom.count)
        let all = top + Array(repeating: StyledLine(), count: padding) + bottom
        return Array(all.prefix(rows))
    }

    private func header() -> [StyledLine] {
        var lines = [StyledLine(status.title.isEmpty ? "raudio" : status.title, .bold)]
        var people = status.authors.joined(separator: ", ")
        if !status.narrators.isEmpty {
            people += (people.isEmpty ? "" : " · ") + "read by " + status.narrators.joined(separator: ", ")
        }
        lines.append(StyledLine(people, .dim))
        if rows >= 14 { lines.append(StyledLine()) }
        lines.append(StyledLine(chapterLine(), .accent))
        lines.append(stateLine())
        if rows >= 8 { lines.append(progressBar()) }
        lines.append(settingsLine())
        return lines
    }

    private func chapterLine() -> String {
        if let index = status.chapterIndex, let chapter = status.chapter {
            let title = chapter.title.isEmpty ? "" : (isNarrow ? " " : " · ") + chapter.title
            return (isNarrow ? "\(index + 1)/\(status.chapters.count)" : "Chapter \(index + 1) of \(status.chapters.count)") + title
        }
        return status.trackTitle ?? ""
    }

    private func stateLine() -> StyledLine {
        let (symbol, word): (String, String) = switch status.state {
        case .playing: ("▶", "Playing")
        case .paused: ("⏸", "Paused")
        case .loading: ("…", "Loading")
        case .stopped: ("■", "Stopped")
        case .ended: ("■", "Ended")
        case .failed: ("✖", "Failed")
        case .idle: ("·", "Idle")
        }
        var spans = [Span(text: "\(symbol) \(word)", style: status.state == .failed ? .error : .bold)]
        if let elapsed = status.elapsed, let duration = status.duration {
            spans.append(Span(text: "  \(Self.time(elapsed)) / \(Self.time(duration))"))
            if let left = status.remainingAtSpeed {
                spans.append(Span(text: isNarrow ? "  -\(Self.time(left))" : " · \(Self.time(left)) left", style: .dim))
            }
        } else if let progression = status.progression {
            spans.append(Span(text: "  \(Self.percent(progression))"))
            // Speech: estimated from the words left (SpeechPace), hence "about", to 10 s under ten
            // minutes and to the minute above.
            if let estimate = status.remainingAtSpeed {
                let step: Double = estimate < 600 ? 10 : 60
                let left = (estimate / step).rounded() * step
                spans.append(Span(text: isNarrow ? "  ~\(Self.time(left))" : " · about \(Self.time(left)) left", style: .dim))
            }
        }
        return StyledLine(spans)
    }

    private func progressBar() -> StyledLine {
        let label = status.progression.map { " " + Self.percent($0) } ?? ""
        let barWidth = max(0, columns - DisplayWidth.of(label) - 1)
        let filled = Int((status.progression ?? 0) * Double(barWidth))
        return StyledLine([
            Span(text: String(repeating: "━", count: filled), style: .accent),
            Span(text: String(repeating: "─", count: barWidth - filled), style: .dim),
            Span(text: label),
        ])
    }

    private func settingsLine() -> StyledLine {
        var parts = ["speed \(Self.decimal(status.speed))×", "volume \(Int((status.volume * 100).rounded()))%"]
        switch status.sleep {
        case .off: break
        case .endOfChapter: parts.append("sleep: end of chapter")
        case .after: parts.append("sleep \(Self.time(status.sleepRemaining(now: now) ?? 0))")
        }
        if let voice = status.voice, status.mode == .speech { parts.append("voice \(voice)") }
        return StyledLine(parts.joined(separator: isNarrow ? " " : " · "), .plain)
    }

    private func body(rows: Int) -> [StyledLine] {
        guard rows > 1, let sentence = status.sentence, status.mode != .audiobook else { return [] }
        let wrapped = SentenceLayout.lines(sentence, word: status.word, columns: columns)
        return [StyledLine()] + fitted(wrapped, rows: rows - 1, keeping: SentenceLayout.lineOfWord(in: wrapped))
    }

    private func footer() -> [StyledLine] {
        var lines: [StyledLine] = []
        if let message = status.message {
            let (symbol, style): (String, TextStyle) = switch message.kind {
            case .info: ("✔ ", .accent)
            case .warning: ("⚠ ", .warning)
            case .error: ("✖ ", .error)
            }
            // Wrapped, not cut: an error is read whole (up to a third of the window; the rest is on stderr
            // when the player ends).
            let most = max(1, rows / 3)
            var wrapped = Self.wrapped(symbol + TerminalText.printable(message.text), columns: columns)
            if wrapped.count > most {
                wrapped = Array(wrapped.prefix(most))
                wrapped[most - 1] += "…"
            }
            lines += wrapped.map { StyledLine($0, style) }
        } else {
            lines.append(StyledLine())
        }
        lines.append(StyledLine(keyHint(), .dim))
        return lines
    }

    /// The reminder of the keys: the most used, and the lists and voice keys; fewer in a narrow window
    /// (the `?` screen lists them all).
    private func keyHint() -> String {
        guard !isNarrow else { return "space pause · ? keys · q quit" }
        var keys = ["space pause", status.mode == .audiobook ? "←/→ back/forward" : "←/→ sentence", "↑/↓ chapter", "m bookmarks"]
        if status.mode == .speech { keys.append("v voice") }
        keys += ["? keys", "q quit"]
        for separator in [" · ", "  "] {
            let hint = keys.joined(separator: separator)
            if DisplayWidth.of(hint) <= columns { return hint }
        }
        while keys.count > 3, DisplayWidth.of(keys.joined(separator: "  ")) > columns { keys.remove(at: keys.count - 3) }
        return keys.joined(separator: "  ")
    }

    private func chapterList(selected: Int, rows: Int) -> [StyledLine] {
        guard rows > 1 else { return [] }
        let title = StyledLine("Chapters (↑/↓ choose, enter go, esc close)", .bold)
        let entries = status.chapters.enumerated().map { index, chapter in
            let marker = index == status.chapterIndex ? "▶ " : "  "
            let start = chapter.start.map { "  " + Self.time($0) } ?? ""
            return StyledLine("\(marker)\(index + 1). \(chapter.title)\(start)", index == selected ? .selected : .plain)
        }
        return [title] + fitted(entries, rows: rows - 1, keeping: selected)
    }

    private func bookmarkList(selected: Int, rows: Int) -> [StyledLine] {
        guard rows > 1 else { return [] }
        let title = StyledLine("Bookmarks (↑/↓ choose, enter go, esc close)", .bold)
        guard let bookmarks = status.bookmarks else { return [title, StyledLine("…", .dim)] }
        guard !bookmarks.isEmpty else { return [title, StyledLine("No bookmarks yet: b bookmarks the place being heard.", .dim)] }
        let entries = bookmarks.enumerated().map { index, bookmark in
            StyledLine("\(bookmark.id). \(Self.place(of: bookmark, chapters: status.chapters, duration: status.duration))", index == selected ? .selected : .plain)
        }
        return [title] + fitted(entries, rows: rows - 1, keeping: selected)
    }

    /// Where a bookmark is, for its line in the list: the chapter or time, the percentage, the words
    /// heard there, and the note. Audio in a book whose chapters' starts are known: the time into the
    /// chapter, as the resume line, `history` and `bookmarks` say it (not the time into the track).
    static func place(of bookmark: Bookmark, chapters: [PlayerStatus.Chapter] = [], duration: Double? = nil) -> String {
        var parts: [String] = []
        if let locator = try? Locator(jsonString: bookmark.locator, source: "bookmark \(bookmark.id)") {
            let timeInBook = locator.locations.time == nil ? nil : locator.locations.totalProgression.flatMap { total in duration.map { total * $0 } }
            if let timeInBook, let chapter = chapters.last(where: { ($0.start ?? .infinity) <= timeInBook + 0.001 }), let start = chapter.start {
                parts.append("\(Self.time(timeInBook - start)) into \(chapter.title)")
            } else {
                if let title = locator.title, !title.isEmpty { parts.append(title) }
                // A time in the track beside a chapter's title would read as a time into the chapter.
                if let begin = locator.locations.time?.begin, locator.title?.isEmpty ?? true { parts.append(Self.time(begin)) }
            }
            if let progression = locator.locations.totalProgression { parts.append(Self.percent(progression)) }
            if let quote = locator.text.highlight?.split(whereSeparator: \.isWhitespace).joined(separator: " "), !quote.isEmpty {
                parts.append("“\(DisplayWidth.truncated(quote, to: 40))”")
            }
        }
        if let note = bookmark.note, !note.isEmpty { parts.append(note) }
        return parts.isEmpty ? "bookmark" : parts.joined(separator: " · ")
    }

    /// `text` in lines at most `columns` wide, broken between words (a word wider than a line is broken
    /// where the line ends).
    static func wrapped(_ text: String, columns: Int) -> [String] {
        guard columns > 1 else { return [text] }
        var lines: [String] = []
        var line = ""
        var width = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = DisplayWidth.of(String(word))
            if width > 0, width + 1 + wordWidth <= columns {
                line += " " + word
                width += 1 + wordWidth
                continue
            }
            if width > 0 { lines.append(line) }
            (line, width) = ("", 0)
            for character in word {
                let characterWidth = DisplayWidth.of(character)
                if width + characterWidth > columns {
                    lines.append(line)
                    (line, width) = ("", 0)
                }
                line.append(character)
                width += characterWidth
            }
        }
        if width > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// At most `rows` of `lines`, scrolled so that line `keeping` is in view.
    private func fitted(_ lines: [StyledLine], rows: Int, keeping: Int? = nil) -> [StyledLine] {
        guard lines.count > rows else { return lines }
        guard rows > 0 else { return [] }
        let target = keeping ?? 0
        let first = min(max(0, target - rows / 2), lines.count - rows)
        return Array(lines[first..<first + rows])
    }

    /// `h:mm:ss`, or `m:ss` under an hour, by the one rule of every time shown (`PlaceDescription.clock`).
    static func time(_ seconds: Double) -> String {
        PlaceDescription.clock(seconds)
    }

    /// A number with up to two decimals and no trailing zeros (1, 1.1, 1.25).
    static func decimal(_ value: Double) -> String {
        let hundredths = value.isFinite ? Int((value * 100).rounded()) : 0
        let (whole, fraction) = (hundredths / 100, abs(hundredths % 100))
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }
}
