// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
import RAudioTestSupport
import Testing

/// Book text never drives the terminal: a title, author or chapter title holding escape sequences (ESC [,
/// OSC, the C1 CSI U+009B) is shown without them by `info --human`, `history --human`, `bookmarks --human`
/// and the terminal player (its screen, its lines on a dumb terminal, its last line).
@Suite(.serialized) struct SecurityTerminalTextTests {
    /// The sample audiobook with escape codes in its metadata: the title shows as `EvilRedTitle`, the author
    /// as `Mallory`, the first chapter as `ChapXYZ` (a terminal obeying `ESC [3D` would show `CXYZ`).
    static func hostileBook(in folder: TemporaryDirectory) throws -> String {
        let book = folder.path("hostile")
        try FileManager.default.copyItem(atPath: Corpus.projectRoot.appendingPathComponent("samples/gull-rock").path, toPath: book)
        let manifest = URL(fileURLWithPath: "\(book)/manifest.json")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        for (plain, hostile) in [
            (#""The Last Lamp of Gull Rock""#, #""Evil\u001b[31mRed\u001b[0mTitle\u009b2J""#),
            (#""The raudio project""#, #""Mal\u001b]0;pwned\u0007lory""#),
            (#""Chapter 1: The Storm""#, #""Chap\u001b[3DXYZ""#),
            (#""The lamp goes out""#, #""Lamp\u009b1;31mOut\u0085""#),
        ] {
            #expect(text.contains(plain))
            text = text.replacingOccurrences(of: plain, with: hostile)
        }
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return book
    }

    /// Whether `text` holds a C0 control other than a line break, DEL or a C1 control.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0.value != 0x0A) || (0x7F..<0xA0).contains($0.value) }
            .map { String(format: "U+%04X", $0.value) }
    }

    @Test func escapeSequencesAreRemovedWholeAndOtherControlsBecomeSpaces() {
        #expect(TerminalText.printable("plain text · ünïcode") == "plain text · ünïcode")
        #expect(TerminalText.printable("Evil\u{1B}[31mRed\u{1B}[0mTitle\u{9B}2J") == "EvilRedTitle")
        #expect(TerminalText.printable("Mal\u{1B}]0;pwned\u{07}lory") == "Mallory")
        #expect(TerminalText.printable("a\u{1B}]2;x\u{1B}\\b\u{1B}Pq\u{9C}c\u{9D}t\u{9C}d") == "abcd")
        #expect(TerminalText.printable("a\u{1B}(Bb\u{1B}cc") == "abc")
        #expect(TerminalText.printable("tab\there\u{7F}\u{85}end\u{1B}") == "tab here  end")
        #expect(TerminalText.printable("line\r\nnext\rlast\u{1B}[2K", keepingLineBreaks: true) == "line\nnext\nlast")
        #expect(TerminalText.printable("one\ntwo") == "one two")
    }

    @Test func infoHumanShowsBookTextWithoutControlCodes() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.hostileBook(in: folder)
        let result = try ProcessRunner.raudio(["info", "--human", book], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.controls(in: result.standardOutput).isEmpty, "\(Self.controls(in: result.standardOutput)):\n\(result.standardOutput)")
        for shown in ["EvilRedTitle", "Author: Mallory", "ChapXYZ", "LampOut"] {
            #expect(result.standardOutput.contains(shown), "\(shown) missing:\n\(result.standardOutput)")
        }
    }

    @Test func historyAndBookmarksHumanShowBookTextWithoutControlCodes() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.hostileBook(in: folder)
        let state = ["RAUDIO_STATE_DIR": folder.path("state")]
        let played = try ProcessRunner.raudio(["play", book, "--output", "null", "--duration", "5"],
                                              input: Data("bookmark \u{1B}[2Jnote\n".utf8), environment: state, timeout: 60)
        #expect(played.status == 0, "\(played.standardError)")
        let history = try ProcessRunner.raudio(["history", "--human"], environment: state, timeout: 30)
        #expect(history.status == 0, "\(history.standardError)")
        #expect(Self.controls(in: history.standardOutput).isEmpty, "\(Self.controls(in: history.standardOutput)):\n\(history.standardOutput)")
        #expect(history.standardOutput.contains("EvilRedTitle"), "\(history.standardOutput)")
        #expect(history.standardOutput.contains("ChapXYZ"), "\(history.standardOutput)")
        let bookmarks = try ProcessRunner.raudio(["bookmarks", "--human"], environment: state, timeout: 30)
        #expect(Self.controls(in: bookmarks.standardOutput).isEmpty, "\(Self.controls(in: bookmarks.standardOutput)):\n\(bookmarks.standardOutput)")
    }

    @Test func theTerminalPlayerShowsBookTextWithoutObeyingIt() throws {
        guard try TerminalPlayerTests.startable() else { return }
        let folder = try TemporaryDirectory()
        let book = try Self.hostileBook(in: folder)
        let terminal = try TmuxSession(columns: 80, rows: 20)
        try terminal.run("\(TerminalPlayerTests.raudio) play \(book) --output null --realtime" + TerminalPlayerTests.afterExit)
        let shown = terminal.waitForScreen(timeout: 15) { $0.contains("▶ Playing") }
        #expect(shown != nil, "no display:\n\(terminal.lastScreen)")
        for part in ["EvilRedTitle", "Mallory", "Chapter 1 of 6 · ChapXYZ"] {
            #expect(terminal.lastScreen.contains(part), "\(part) missing:\n\(terminal.lastScreen)")
        }
        try terminal.type("q")
        TerminalPlayerTests.expectRestored(terminal, exit: 0)
        #expect(terminal.lastScreen.contains("chapter 1: ChapXYZ"), "the last line obeyed the title's codes:\n\(terminal.lastScreen)")
        #expect(!terminal.paneFormat("#{pane_title}").contains("pwned"), "the window title was set by the book")

        let dumb = try TmuxSession(columns: 80, rows: 24, environment: ["TERM": "dumb"])
        try dumb.run("\(TerminalPlayerTests.raudio) play \(book) --output null --from 14 --realtime --duration 3" + TerminalPlayerTests.afterExit)
        TerminalPlayerTests.expectRestored(dumb, exit: 0)
        #expect(dumb.lastScreen.contains("chapter 1: ChapXYZ"), "a line obeyed the title's codes:\n\(dumb.lastScreen)")
        #expect(dumb.lastScreen.contains("LampOut"), "\(dumb.lastScreen)")
    }
}
