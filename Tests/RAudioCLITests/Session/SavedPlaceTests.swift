// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A saved place is said the same way by the resume line, `history --human` and `bookmarks --human`: for
/// an audiobook the chapter and the time into it (not into its track), for speech the chapter beside the
/// sentence.
@Suite struct SavedPlaceTests {
    /// The WHERE column of the first row of a `--human` table whose header names it.
    static func whereColumn(_ table: String) -> String? {
        let lines = table.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(where: { $0.contains("WHERE") }), header + 1 < lines.count,
              let start = lines[header].range(of: "WHERE") else { return nil }
        let row = lines[header + 1]
        let from = row.index(row.startIndex, offsetBy: lines[header].distance(from: lines[header].startIndex, to: start.lowerBound))
        return row[from...].components(separatedBy: "  ").first
    }

    /// Plays `arguments` until a line matches `ready`, bookmarks there, then quits.
    static func bookmark(_ arguments: [String], environment: [String: String], ready: @escaping (String) -> Bool) throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable, arguments, environment: environment)
        #expect(running.waitForLine(timeout: 30, ready), "\(running.standardError)")
        running.send("bookmark\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmark\"") }, "\(running.standardError)")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
    }

    @Test func anAudiobookPlaceIsTheTimeIntoItsChapterEverywhere() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path]
        // 23 s into the first track is 8 s into "The lamp goes out" (which starts at 15.26 s in it).
        try Self.bookmark(["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--from", "23", "--interval", "0.2"],
                          environment: environment) { $0.contains("\"type\":\"position\"") }
        let expected = /^0:0[7-9] into The lamp goes out · 0:2[3-5] \/ 1:01$/
        let history = try ProcessRunner.raudio(["history", "--human"], environment: environment)
        let saved = try #require(Self.whereColumn(history.standardOutput), "\(history.standardOutput)")
        #expect(saved.wholeMatch(of: expected) != nil, "history: \(saved)")
        for arguments in [["bookmarks", "--human"], ["bookmarks", "--human", PlayCommandTests.sampleBook]] {
            let bookmarks = try ProcessRunner.raudio(arguments, environment: environment)
            let marked = try #require(Self.whereColumn(bookmarks.standardOutput), "\(bookmarks.standardOutput)")
            #expect(marked.wholeMatch(of: expected) != nil, "\(arguments): \(marked)")
        }
        let resumed = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "1"], environment: environment)
        let line = try #require(resumed.standardError.split(separator: "\n").first { $0.contains("resuming where the book was left: ") })
        let place = String(line[line.range(of: "left: ")!.upperBound...])
        #expect(place == saved, "the resume line says \(place), history \(saved)")
    }

    @Test func aSpokenPlaceNamesItsChapterBesideTheSentenceEverywhere() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path]
        // Chapters in one file (Project Gutenberg's layout): the entries are placed by their element.
        let (_, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.bookmark(["speak", folder.path, "--output", "null", "--realtime", "--from", "OEBPS/book.xhtml#ch2"],
                          environment: environment) { $0.contains("\"type\":\"utterance\"") && $0.contains("carpet-bag") }
        let history = try ProcessRunner.raudio(["history", "--human"], environment: environment)
        let saved = try #require(Self.whereColumn(history.standardOutput), "\(history.standardOutput)")
        #expect(saved.hasPrefix("Chapter 2. The Carpet-Bag · “"), "history: \(saved)")
        let bookmarks = try ProcessRunner.raudio(["bookmarks", "--human"], environment: environment)
        let marked = try #require(Self.whereColumn(bookmarks.standardOutput), "\(bookmarks.standardOutput)")
        #expect(marked.hasPrefix("Chapter 2. The Carpet-Bag · “"), "bookmarks: \(marked)")
        let resumed = try ProcessRunner.raudio(["speak", folder.path, "--output", "null", "--duration", "1"], environment: environment)
        #expect(resumed.standardError.contains("resuming where the book was left: \(saved)"), "history says \(saved):\n\(resumed.standardError)")
    }
}
