// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumNavigator
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer
@testable import RAudioState

/// The terminal player's frame, laid out without a terminal: every line fits the window, the parts
/// the issue names are there, and the escape sequences follow what the terminal allows.
@Suite struct TerminalScreenTests {
    static func audiobookStatus(title: String = "The Last Lamp of Gull Rock") -> PlayerStatus {
        var status = PlayerStatus(mode: .audiobook)
        status.title = title
        status.authors = ["The raudio project"]
        status.duration = 3723
        status.chapters = [.init(title: "The Storm", start: 0), .init(title: "The Ship", start: 1800)]
        status.chapterIndex = 1
        status.state = .playing
        status.totalProgression = 0.5
        status.speed = 1.5
        status.volume = 0.8
        status.sleep = .after(remaining: 600, since: 1000)
        return status
    }

    @Test func anAudiobookFrameShowsWhatTheListenerNeeds() {
        let screen = TerminalScreen(status: Self.audiobookStatus(), columns: 80, rows: 24, now: 1030)
        let lines = screen.lines()
        #expect(lines.count == 24)
        let text = lines.map(\.text).joined(separator: "\n")
        for expected in ["The Last Lamp of Gull Rock", "The raudio project", "Chapter 2 of 2 · The Ship", "▶ Playing", "31:01 / 1:02:03",
                         "20:41 left", "50%", "speed 1.5×", "volume 80%", "sleep 9:30", "q quit"] {
            #expect(text.contains(expected), "\(expected) missing from\n\(text)")
        }
    }

    /// An error longer than the window is wrapped between words and shown whole, not cut at its width.
    @Test func aLongErrorIsWrappedAndShownWhole() {
        var status = Self.audiobookStatus()
        let words = (1...40).map { "word\($0)" }
        status.message = PlayerStatus.Message(kind: .error, text: "error: " + words.joined(separator: " ") + " /a/very/long/path/" + String(repeating: "x", count: 120))
        let lines = TerminalScreen(status: status, columns: 60, rows: 24, now: 1030).lines()
        #expect(lines.allSatisfy { $0.width <= 60 })
        let text = lines.map { $0.rendered(columns: 60, .plain) }
        #expect(!text.contains { $0.hasSuffix("…") }, "cut:\n\(text.joined(separator: "\n"))")
        let shown = text.joined(separator: "\n")
        for word in words { #expect(shown.contains(word + " ") || shown.contains(word + "\n"), "\(word) missing:\n\(shown)") }
        #expect(shown.replacingOccurrences(of: "\n", with: "").contains("/a/very/long/path/" + String(repeating: "x", count: 120)))
        #expect(text.last?.contains("q quit") == true, "the keys' line stays at the bottom")
        #expect(TerminalScreen.wrapped("abc def", columns: 3) == ["abc", "def"])
        #expect(TerminalScreen.wrapped("abcdefg", columns: 3) == ["abc", "def", "g"])
    }

    @Test func everyLineFitsAnyWidthWithWideAndRightToLeftTitles() {
        for title in ["灯台守の最後の夜 — とても長い題名の本", "המגדלור האחרון של צוק השחפים", "منارة صخرة النورس الأخيرة", "The Last Lamp of Gull Rock"] {
            var status = Self.audiobookStatus(title: title)
            status.message = .init(kind: .warning, text: "track2.mp3: the stream breaks at 1:02, and this message is long enough to be cut")
            for columns in [20, 40, 80, 132] {
                for capabilities in [TerminalCapabilities.full, .noColor, .plain] {
                    let lines = TerminalScreen(status: status, columns: columns, rows: 24).lines()
                    for line in lines {
                        let shown = line.rendered(columns: columns, capabilities)
                        let visible = shown.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
                        #expect(DisplayWidth.of(visible) <= columns, "\(columns) columns: \(visible)")
                    }
                }
            }
        }
    }

    @Test func noColorKeepsAttributesAndDumbHasNoEscapes() {
        let line = StyledLine([Span(text: "hello ", style: .shaded), Span(text: "world", style: .highlight)])
        #expect(line.rendered(columns: 80, .full).contains("\u{1B}[30;43m"))
        let noColor = line.rendered(columns: 80, .noColor)
        #expect(noColor.contains("\u{1B}[7m"), "the word is still shown, in reverse video")
        #expect(noColor.range(of: #"\u{1B}\[[0-9;]*(3[0-9]|4[0-9])[0-9;]*m"#, options: .regularExpression) == nil, "no colour with NO_COLOR")
        #expect(line.rendered(columns: 80, .plain) == "hello world")
        #expect(TerminalCapabilities.fromEnvironment(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .noColor)
        #expect(TerminalCapabilities.fromEnvironment(["TERM": "dumb"]) == .plain)
        #expect(TerminalCapabilities.fromEnvironment(["TERM": "xterm", "NO_COLOR": ""]) == .full, "an empty NO_COLOR does not count")
    }

    @Test func theSentenceShowsTheWordHeardAndStaysInView() {
        var status = PlayerStatus(mode: .speech)
        status.state = .playing
        let sentence = "The wind rose over the rocks at dusk,\n      and the keeper climbed the long stair to light the lamp before the storm."
        status.sentence = sentence
        status.word = sentence.range(of: "keeper")
        let lines = TerminalScreen(status: status, columns: 40, rows: 24).lines()
        let highlighted = lines.flatMap(\.spans).filter { $0.style == .highlight }.map(\.text)
        #expect(highlighted == ["keeper"])
        let text = lines.map(\.text).joined(separator: "\n")
        #expect(lines.map(\.text).contains("and the keeper climbed the long stair to"), "the page's line break and indentation are not kept:\n\(text)")
        #expect(!text.contains("  and"))
        // In a short window the line holding the word is still shown.
        let short = TerminalScreen(status: status, columns: 20, rows: 12).lines()
        #expect(short.flatMap(\.spans).contains { $0.style == .highlight })
    }

    @Test func theChapterListAndHelpReplaceTheBody() {
        let status = Self.audiobookStatus()
        let list = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .chapters(selected: 0)).lines()
        let selected = list.filter { $0.spans.contains { $0.style == .selected } }.map(\.text)
        #expect(selected.count == 1 && selected[0].contains("1. The Storm"))
        #expect(list.map(\.text).contains { $0.contains("▶ 2. The Ship") }, "the chapter being heard is marked")
        let help = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .help).lines().map(\.text).joined(separator: "\n")
        for key in ["space", "← →", "↑ ↓", "[ ]", "- +", "b ", "s ", "c ", "q "] { #expect(help.contains(key), "\(key) missing from help") }
    }

    @Test func theBookmarkListShowsWhereEachBookmarkIs() {
        var status = Self.audiobookStatus()
        let asked = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .bookmarks(selected: 0)).lines().map(\.text)
        #expect(asked.contains { $0.hasPrefix("Bookmarks (") } && asked.contains("…"), "waiting for the list:\n\(asked)")
        status.bookmarks = []
        let none = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .bookmarks(selected: 0)).lines().map(\.text)
        #expect(none.contains { $0.contains("No bookmarks yet") })
        status.bookmarks = [
            Bookmark(id: 3, locator: #"{"href":"c2.xhtml","type":"application/xhtml+xml","title":"The Ship","locations":{"totalProgression":0.42},"text":{"highlight":"Ada\n   climbed the stair"}}"#, note: nil, created: 0),
            Bookmark(id: 7, locator: #"{"href":"a.mp3","type":"audio/mpeg","locations":{"fragments":["t=75"]}}"#, note: "the storm", created: 1),
        ]
        let lines = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .bookmarks(selected: 1)).lines()
        let text = lines.map(\.text)
        #expect(text.contains { $0.contains("3. The Ship · 42% · “Ada climbed the stair”") }, "\(text)")
        let selected = lines.filter { $0.spans.contains { $0.style == .selected } }.map(\.text)
        #expect(selected.count == 1 && selected[0].contains("7. 1:15 · the storm"), "\(selected)")
        // 30 s into a track, 1861.5 s into the book: 61.5 s into "The Ship" (from 1800 s), not "The Ship · 0:30".
        status.bookmarks = [Bookmark(id: 9, locator: #"{"href":"b.mp3","type":"audio/mpeg","title":"The Ship","locations":{"fragments":["t=30"],"totalProgression":0.5}}"#, note: nil, created: 2)]
        let audio = TerminalScreen(status: status, columns: 80, rows: 24, overlay: .bookmarks(selected: 0)).lines().map(\.text)
        #expect(audio.contains { $0.contains("9. 1:01 into The Ship · 50%") }, "\(audio)")
    }

    @Test func speechShowsTheTimeLeftEstimatedFromWords() {
        var status = PlayerStatus(mode: .speech)
        status.state = .playing
        for (index, now) in [0.0, 10, 20].enumerated() {
            let text = Array(repeating: "word", count: 20).joined(separator: " ")
            status.apply(.utterance(text: text, language: "en", voice: "en-us",
                                    locator: Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: 0.5 + Double(index) * 0.01))), now: now)
        }
        // 40 words in 20 s and 2 % of the book: 960 words left in the 48 %, 480 s (to the minute: an estimate).
        let text = TerminalScreen(status: status, columns: 80, rows: 24).lines().map(\.text).joined(separator: "\n")
        #expect(text.contains("52% · about 8:00 left"), "\(text)")
        #expect(text.contains("m bookmarks  v voice  ? keys  q quit"), "the keys fit 80 columns")
        let wide = TerminalScreen(status: status, columns: 100, rows: 24).lines().map(\.text).joined(separator: "\n")
        #expect(wide.contains("←/→ sentence · ↑/↓ chapter · m bookmarks · v voice · ? keys · q quit"))
    }
}
