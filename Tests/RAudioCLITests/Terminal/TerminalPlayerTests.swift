// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The terminal player in a real terminal (tmux): what it shows, each key, a resize, ctrl-Z and `fg`,
/// NO_COLOR and TERM=dumb, narrow windows and wide or right-to-left titles, and a terminal given back
/// in working order after each way of exiting.
@Suite(.serialized) struct TerminalPlayerTests {
    static let book = PlayCommandTests.sampleBook
    static let raudio = ProcessRunner.raudioExecutable.path

    /// After the command: its exit status and the terminal's line discipline, printed by the shell.
    /// (The markers are split in quotes so that the command line as typed does not match them.)
    static let afterExit = #"; echo "EX""IT=$?"; echo "T""TY=$(stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\n' ' ')""#

    static func startable() throws -> Bool {
        if TmuxSession.isAvailable { return true }
        if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("tmux is missing (make deps installs it)") }
        return false
    }

    /// The terminal after raudio left it: line input, echo and signals on; normal screen; cursor shown.
    static func expectRestored(_ terminal: TmuxSession, exit status: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        let screen = terminal.waitForScreen(timeout: 15) { $0.split(separator: "\n").contains { $0.hasPrefix("TTY=") } }
        #expect(screen?.contains("EXIT=\(status)") == true, "exit \(status) expected:\n\(terminal.lastScreen)", sourceLocation: sourceLocation)
        #expect(screen?.contains("TTY=isig icanon echo") == true, "the terminal was not restored:\n\(terminal.lastScreen)", sourceLocation: sourceLocation)
        #expect(terminal.paneFormat("#{alternate_on}") == "0", "still on the alternate screen", sourceLocation: sourceLocation)
        #expect(terminal.paneFormat("#{cursor_flag}") == "1", "the cursor is still hidden", sourceLocation: sourceLocation)
    }

    @Test func theDisplayAndEveryKeyOfAnAudiobook() throws {
        guard try Self.startable() else { return }
        let state = try TemporaryDirectory()
        let terminal = try TmuxSession(environment: ["RAUDIO_NO_STATE": "", "RAUDIO_STATE_DIR": state.url.path])
        try terminal.run("\(Self.raudio) play \(Self.book) --output null --realtime" + Self.afterExit)
        let first = terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") && $0.contains("Chapter 1 of 6") }
        #expect(first != nil, "no display:\n\(terminal.lastScreen)")
        let shown = terminal.lastScreen
        for part in ["The Last Lamp of Gull Rock", "The raudio project · read by eSpeak NG", " / 1:01", "left", "speed 1×", "volume 100%", "q quit"] {
            #expect(shown.contains(part), "\(part) missing:\n\(shown)")
        }
        #expect(terminal.paneFormat("#{alternate_on}") == "1", "the player draws on the alternate screen")

        try terminal.press("Space")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("⏸ Paused") } != nil, "space did not pause:\n\(terminal.lastScreen)")
        try terminal.press("Space")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("▶ Playing") } != nil)
        try terminal.type("]]")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("speed 1.2×") } != nil, "] did not speed up:\n\(terminal.lastScreen)")
        try terminal.type("[")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("speed 1.1×") } != nil)
        try terminal.type("--")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("volume 80%") } != nil, "- did not lower the volume:\n\(terminal.lastScreen)")
        try terminal.type("+")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("volume 90%") } != nil)
        try terminal.press("Down")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Chapter 2 of 6") } != nil, "↓ did not go to the next chapter:\n\(terminal.lastScreen)")
        try terminal.press("Right")
        #expect(terminal.waitForScreen(timeout: 5) { Self.elapsed(in: $0).map { $0 >= 25 } == true } != nil, "→ did not skip 10 s:\n\(terminal.lastScreen)")
        try terminal.press("Left")
        #expect(terminal.waitForScreen(timeout: 5) { Self.elapsed(in: $0).map { $0 < 25 } == true } != nil, "← did not go back 10 s:\n\(terminal.lastScreen)")
        try terminal.press("Up")
        #expect(terminal.waitForScreen(timeout: 5) { Self.elapsed(in: $0).map { (15...17).contains($0) } == true } != nil,
                "↑ did not go back to the start of the chapter:\n\(terminal.lastScreen)")
        try terminal.press("Up")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Chapter 1 of 6") } != nil, "↑ at a chapter's start did not go to the previous one:\n\(terminal.lastScreen)")
        try terminal.type("s")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("sleep 15:00") || $0.contains("sleep 14:5") } != nil, "s did not set the sleep timer:\n\(terminal.lastScreen)")
        try terminal.type("s")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("sleep 30:00") || $0.contains("sleep 29:5") } != nil)
        try terminal.type("b")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("bookmark 1 saved") } != nil, "b did not bookmark:\n\(terminal.lastScreen)")
        try terminal.type("c")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Chapters (") && $0.contains("6. La lettre") } != nil, "c shows no chapter list:\n\(terminal.lastScreen)")
        try terminal.press("Down", "Down", "Down", "Enter")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Chapter 4 of 6") && !$0.contains("Chapters (") } != nil, "the chapter picked was not played:\n\(terminal.lastScreen)")
        try terminal.type("?")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("this help") } != nil)
        try terminal.type("x")
        #expect(terminal.waitForScreen(timeout: 5) { !$0.contains("this help") } != nil, "the help did not close")
        try terminal.type("q")
        Self.expectRestored(terminal, exit: 0)
        #expect(terminal.lastScreen.contains("raudio: stopped at 0:"), "no summary after quitting:\n\(terminal.lastScreen)")
    }

    /// `1:02 / 1:01`-style elapsed time of the state line, in seconds.
    static func elapsed(in screen: String) -> Int? {
        guard let match = screen.firstMatch(of: /(\d+):(\d\d) \/ 1:01/) else { return nil }
        return Int(match.1)! * 60 + Int(match.2)!
    }

    @Test func speechShowsTheSentenceWithTheWordHeardHighlighted() throws {
        guard try Self.startable() else { return }
        let terminal = try TmuxSession(columns: 60, rows: 20)
        try terminal.run("\(Self.raudio) speak \(SpeakCommandTests.sampleEPUB) --output null --realtime" + Self.afterExit)
        #expect(terminal.waitForScreen(timeout: 20) { $0.contains("The wind rose") } != nil, "no sentence:\n\(terminal.lastScreen)")
        #expect(terminal.lastScreen.contains("voice en-us"))
        // The word being heard: yellow background, or reverse video with NO_COLOR.
        var highlighted = false
        for _ in 0..<30 where !highlighted {
            highlighted = terminal.screenWithEscapes().contains("\u{1B}[43m")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(highlighted, "no word highlighted:\n\(terminal.screenWithEscapes())")
        try terminal.press("Right")
        #expect(terminal.waitForScreen(timeout: 10) { $0.contains("Ada climbed") } != nil, "→ did not move to the next sentence:\n\(terminal.lastScreen)")
        try terminal.press("C-c")
        Self.expectRestored(terminal, exit: 0)
    }

    /// Speech: the time left estimated from words, `v` for the next voice of the book's language, and `m`
    /// for the bookmark list, whose entry picked with Enter is where the reading goes back to.
    @Test func speechShowsTimeLeftChangesVoiceAndGoesToABookmarkFromItsList() throws {
        guard try Self.startable() else { return }
        let state = try TemporaryDirectory()
        let terminal = try TmuxSession(columns: 100, rows: 24, environment: ["RAUDIO_NO_STATE": "", "RAUDIO_STATE_DIR": state.url.path])
        try terminal.run("\(Self.raudio) speak \(SpeakCommandTests.sampleEPUB) --output null --realtime" + Self.afterExit)
        #expect(terminal.waitForScreen(timeout: 20) { $0.contains("The wind rose") } != nil, "no sentence:\n\(terminal.lastScreen)")
        #expect(terminal.lastScreen.contains("m bookmarks · v voice"), "the new keys are not in the key line:\n\(terminal.lastScreen)")
        try terminal.type("b")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("bookmark 1 saved") } != nil, "b did not bookmark:\n\(terminal.lastScreen)")
        try terminal.type("v")
        #expect(terminal.waitForScreen(timeout: 10) { $0.contains("voice en-us-nyc") } != nil, "v did not take the next English voice:\n\(terminal.lastScreen)")
        #expect(terminal.waitForScreen(timeout: 30) { $0.range(of: #"\d+% · about \d+:\d\d left"#, options: .regularExpression) != nil } != nil,
                "no time left estimated:\n\(terminal.lastScreen)")
        try terminal.press("Right")
        #expect(terminal.waitForScreen(timeout: 10) { !$0.contains("The wind rose") } != nil, "→ did not move on:\n\(terminal.lastScreen)")
        try terminal.type("m")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Bookmarks (") && $0.contains("1. ") && $0.contains("“The wind rose") } != nil,
                "m shows no bookmark list:\n\(terminal.lastScreen)")
        try terminal.press("Enter")
        #expect(terminal.waitForScreen(timeout: 10) { !$0.contains("Bookmarks (") && $0.contains("The wind rose") } != nil,
                "Enter did not go to the bookmark:\n\(terminal.lastScreen)")
        try terminal.type("m")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Bookmarks (") } != nil)
        try terminal.press("Escape")
        #expect(terminal.waitForScreen(timeout: 5) { !$0.contains("Bookmarks (") } != nil, "Escape did not close the list:\n\(terminal.lastScreen)")
        try terminal.type("q")
        Self.expectRestored(terminal, exit: 0)
    }

    /// Japanese read aloud: the sentence is shown as spoken (the ruby reading ゆうべ of 昨夕 left out), the word
    /// heard is highlighted in it, and at 40 columns the line that would leave "。" alone at the start of
    /// the next one breaks a character earlier (kinsoku).
    @Test func japaneseIsShownAsSpokenAndWrapsWithoutPunctuationAtALineStart() throws {
        guard try Self.startable() else { return }
        let page = TestBooks.xhtml(["<ruby>昨夕<rt>ゆうべ</rt></ruby>は雨が降っていました。わたしは窓の外をずっと長い間見ていました。"], lang: "ja")
        let book = try TestBooks.epub(pages: [("p.xhtml", "application/xhtml+xml", page)], language: "ja")
        defer { try? FileManager.default.removeItem(at: book) }
        let state = try TemporaryDirectory()
        let terminal = try TmuxSession(columns: 40, rows: 20, environment: ["RAUDIO_NO_STATE": "", "RAUDIO_STATE_DIR": state.url.path])
        try terminal.run("\(Self.raudio) speak \(book.path) --output null --realtime" + Self.afterExit)
        #expect(terminal.waitForScreen(timeout: 20) { $0.contains("昨夕は雨が降っていました。") } != nil, "the sentence is not shown as spoken:\n\(terminal.lastScreen)")
        #expect(!terminal.lastScreen.contains("ゆうべ"), "the ruby reading is shown:\n\(terminal.lastScreen)")
        var highlighted = false
        for _ in 0..<30 where !highlighted {
            highlighted = terminal.screenWithEscapes().contains("43m昨夕\u{1B}[")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(highlighted, "昨夕 is not the word highlighted:\n\(terminal.screenWithEscapes())")
        let wrapped = terminal.waitForScreen(timeout: 20) { $0.contains("わたしは窓の外をずっと長い間見ていまし\nた。") }
        #expect(wrapped != nil, "the 20-character line does not break before the character that precedes 。:\n\(terminal.lastScreen)")
        #expect(!terminal.screen().contains { $0.hasPrefix("。") }, "。 begins a line:\n\(terminal.lastScreen)")
        try terminal.type("q")
        Self.expectRestored(terminal, exit: 0)
    }

    @Test func aResizeRedrawsAndNarrowWindowsWithWideAndRightToLeftTitlesFit() throws {
        guard try Self.startable() else { return }
        let folder = try TemporaryDirectory()
        for (name, title) in [("ja", "灯台守の最後の夜の長い長い物語"), ("he", "המגדלור האחרון של צוק השחפים")] {
            let book = try Self.book(in: folder, name: name, title: title)
            let terminal = try TmuxSession(columns: 80, rows: 24)
            try terminal.run("\(Self.raudio) play \(book) --output null --realtime" + Self.afterExit)
            #expect(terminal.waitForScreen(timeout: 15) { $0.contains(String(title.prefix(4))) && $0.contains("Playing") } != nil, "\(name):\n\(terminal.lastScreen)")
            try terminal.resize(columns: 40, rows: 12)
            let narrow = terminal.waitForScreen(timeout: 5) { $0.contains("1/1") || $0.contains("…") }
            #expect(narrow != nil, "no redraw for 40 columns:\n\(terminal.lastScreen)")
            for row in terminal.screen() {
                #expect(DisplayWidthProbe.columns(row) <= 40, "\(name): a row is wider than the window: \(row)")
            }
            #expect(terminal.lastScreen.contains(String(title.prefix(3))), "\(name): the title is not shown:\n\(terminal.lastScreen)")
            try terminal.resize(columns: 80, rows: 24)
            #expect(terminal.waitForScreen(timeout: 5) { $0.contains("back/forward") } != nil, "no redraw for 80 columns:\n\(terminal.lastScreen)")
            try terminal.type("q")
            Self.expectRestored(terminal, exit: 0)
        }
    }

    @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
        guard try Self.startable() else { return }
        let terminal = try TmuxSession()
        // Without the exit report: bash goes on with a command list when a job in it stops. It is
        // asked for once the job brought back with `fg` has ended (`$?` is then its status).
        try terminal.run("\(Self.raudio) play \(Self.book) --output null --realtime")
        #expect(terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") } != nil)
        try terminal.press("C-z")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("Stopped") } != nil, "ctrl-Z did not suspend:\n\(terminal.lastScreen)")
        #expect(terminal.paneFormat("#{alternate_on}") == "0")
        try terminal.run(#"echo "SUSPENDED""-TTY=$(stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)$' | tr '\n' ' ')""#)
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("SUSPENDED-TTY=icanon echo") } != nil, "the shell got a raw terminal:\n\(terminal.lastScreen)")
        try terminal.run("fg")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("The Last Lamp of Gull Rock") && $0.contains("speed 1×") } != nil, "fg did not redraw:\n\(terminal.lastScreen)")
        #expect(terminal.paneFormat("#{alternate_on}") == "1")
        try terminal.press("Space")
        #expect(terminal.waitForScreen(timeout: 5) { $0.contains("⏸ Paused") } != nil, "keys do not work after fg:\n\(terminal.lastScreen)")
        try terminal.type("q")
        #expect(terminal.waitForScreen(timeout: 10) { $0.contains("raudio: stopped at") } != nil, "q did not quit:\n\(terminal.lastScreen)")
        try terminal.run(String(Self.afterExit.dropFirst(2)))
        Self.expectRestored(terminal, exit: 0)
    }

    /// Each way out gives the terminal back: the end of the book, SIGTERM, SIGHUP, ctrl-C, a fatal error.
    @Test(arguments: ["end", "TERM", "HUP", "ctrl-c", "error"])
    func everyWayOutRestoresTheTerminal(_ way: String) throws {
        guard try Self.startable() else { return }
        let terminal = try TmuxSession()
        let output = way == "error" ? "wav:/nonexistent-folder/out.wav" : "null"
        let duration = way == "end" ? " --duration 2" : ""
        try terminal.run("\(Self.raudio) play \(Self.book) --output \(output) --realtime\(duration)" + Self.afterExit)
        switch way {
        case "TERM", "HUP":
            #expect(terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") } != nil)
            // Signal the raudio process (the shell's child), not the shell.
            let pid = try #require(Self.raudioPID(in: terminal))
            kill(pid, way == "TERM" ? SIGTERM : SIGHUP)
        case "ctrl-c":
            #expect(terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") } != nil)
            try terminal.press("C-c")
        default:
            break
        }
        Self.expectRestored(terminal, exit: way == "error" ? 73 : 0)
        if way == "error" {
            #expect(terminal.lastScreen.contains("/nonexistent-folder"), "the error is not shown once the terminal is back:\n\(terminal.lastScreen)")
        }
    }

    /// A book heard to its end leaves "ended at 100%" for the shell, not the place where its last sentence began.
    /// Playing to a WAV file, the last line names the file written (after the line saying where it ended).
    @Test func aWAVOutputEndsWithTheLineNamingTheFile() throws {
        guard try Self.startable() else { return }
        let folder = try TemporaryDirectory()
        let wav = folder.path("out.wav")
        let terminal = try TmuxSession(columns: 120, rows: 20)
        try terminal.run("\(Self.raudio) play \(Self.book) --output wav:\(wav) --from 50" + Self.afterExit)
        Self.expectRestored(terminal, exit: 0)
        let lines = terminal.lastScreen.split(separator: "\n").map(String.init)
        let ended = try #require(lines.lastIndex { $0.hasPrefix("raudio: ended at") }, "\(terminal.lastScreen)")
        #expect(lines.count > ended + 1 && lines[ended + 1].hasPrefix("wrote \(wav): 0:11 of audio ("), "\(terminal.lastScreen)")
    }

    @Test func aBookHeardToItsEndSaysSoOnTheWayOut() throws {
        guard try Self.startable() else { return }
        let terminal = try TmuxSession(columns: 80, rows: 20, environment: ["RAUDIO_NO_STATE": "1"])
        try terminal.run("\(Self.raudio) speak \(SpeakCommandTests.sampleEPUB) --output null" + Self.afterExit)
        Self.expectRestored(terminal, exit: 0)
        #expect(terminal.lastScreen.contains("raudio: ended at 100%, chapter 2"), "\(terminal.lastScreen)")
    }

    @Test func noColorGivesAttributesOnlyAndDumbTerminalsGetLines() throws {
        guard try Self.startable() else { return }
        let plain = try TmuxSession(columns: 60, rows: 20, environment: ["NO_COLOR": "1"])
        try plain.run("\(Self.raudio) speak \(SpeakCommandTests.sampleEPUB) --output null --realtime --duration 6" + Self.afterExit)
        var sawReverse = false
        for _ in 0..<40 where !sawReverse {
            let escapes = plain.screenWithEscapes()
            #expect(escapes.range(of: #"\u{1B}\[[0-9;]*(3[0-7]|4[0-7]|38|48)[;m]"#, options: .regularExpression) == nil, "a colour with NO_COLOR:\n\(escapes)")
            sawReverse = escapes.contains("\u{1B}[7m")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(sawReverse, "the word heard is not shown in reverse video")
        Self.expectRestored(plain, exit: 0)

        let dumb = try TmuxSession(columns: 80, rows: 24, environment: ["TERM": "dumb"])
        try dumb.run("\(Self.raudio) play \(Self.book) --output null --realtime --duration 17" + Self.afterExit)
        #expect(dumb.waitForScreen(timeout: 30) { $0.contains("TTY=") } != nil)
        let screen = dumb.lastScreen
        #expect(screen.contains("playing · chapter 1: Chapter 1: The Storm"), "no line for the first chapter:\n\(screen)")
        #expect(screen.contains("playing · chapter 2: The lamp goes out"), "no line for the next chapter:\n\(screen)")
        #expect(!dumb.screenWithEscapes().contains("\u{1B}[7m"))
        Self.expectRestored(dumb, exit: 0)
    }

    @Test func jsonOnATerminalAndAProgressBarWhileRendering() throws {
        guard try Self.startable() else { return }
        let folder = try TemporaryDirectory()
        let terminal = try TmuxSession()
        try terminal.run("\(Self.raudio) play \(Self.book) --json --output null --duration 1" + Self.afterExit)
        #expect(terminal.waitForScreen(timeout: 15) { $0.contains(#"{"v":1,"type":"state","state":"stopped""#) } != nil, "--json printed no events:\n\(terminal.lastScreen)")
        Self.expectRestored(terminal, exit: 0)
        // Commands piped in while stdout is the terminal: the line protocol, not keys.
        let tall = try TmuxSession(columns: 200, rows: 60)
        try tall.run("echo status | \(Self.raudio) play \(Self.book) --output null --duration 1" + Self.afterExit)
        #expect(tall.waitForScreen(timeout: 15) { $0.contains(#"{"v":1,"type":"ack","command":"status"}"#) } != nil,
                "a piped command was not answered in JSON:\n\(tall.lastScreen)")
        Self.expectRestored(tall, exit: 0)
        try terminal.run("clear; \(Self.raudio) play \(Self.book) --output wav:\(folder.path("out.wav")) --realtime --duration 4 > \(folder.path("events.jsonl"))" + Self.afterExit)
        #expect(terminal.waitForScreen(timeout: 10) { $0.contains("rendering ") && $0.contains("%") } != nil, "no progress bar on stderr:\n\(terminal.lastScreen)")
        Self.expectRestored(terminal, exit: 0)
        let events = try String(contentsOfFile: folder.path("events.jsonl"), encoding: .utf8)
        #expect(events.contains(#""type":"opened""#) && !events.contains("rendering"), "stdout keeps the events only")
    }

    /// The pid of the raudio started in `terminal`: the child of its pane's shell (not the newest raudio on
    /// the machine, which may be another test process's).
    static func raudioPID(in terminal: TmuxSession) -> pid_t? {
        let shell = terminal.paneFormat("#{pane_pid}")
        guard !shell.isEmpty else { return nil }
        let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-n", "-P", shell, "-f", "\(raudio) play"])
        return result.flatMap { pid_t($0.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// A one-track audiobook titled `title`, using the sample's first track.
    static func book(in folder: TemporaryDirectory, name: String, title: String) throws -> String {
        let directory = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let track = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3")
        try FileManager.default.copyItem(at: track, to: directory.appendingPathComponent("track.mp3"))
        let manifest = """
            {"@context":"https://readium.org/webpub-manifest/context.jsonld","metadata":{"@type":"http://schema.org/Audiobook","title":"\(title)","author":"\(title.prefix(6))","duration":24},
             "readingOrder":[{"href":"track.mp3","type":"audio/mpeg","duration":24,"title":"\(title)"}],"toc":[{"href":"track.mp3","title":"\(title)"}]}
            """
        try manifest.write(to: directory.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        return directory.appendingPathComponent("manifest.json").path
    }
}

/// Display columns of a captured row, measured as the terminal would (the test's own measure, not the
/// player's: wide CJK, zero-width marks).
enum DisplayWidthProbe {
    static func columns(_ row: String) -> Int {
        row.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return width
            default: break
            }
            let value = scalar.value
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFF60).contains(value)
            return width + (wide ? 2 : 1)
        }
    }
}
