// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Bookmarks with the real binary and store: made, listed and followed from stdin while playing or
/// speaking, then listed and deleted with `raudio bookmarks`.
@Suite struct BookmarkTests {
    static func lines(_ running: RunningProcess, type: String) throws -> [JSONObject] {
        try running.outputLines.filter { $0.contains("\"type\":\"\(type)\"") }.map(PlayCommandTests.object)
    }

    @Test func anAudiobookIsBookmarkedListedFollowedAndDeleted() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path]
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--from", "30", "--interval", "0.2"],
                                         environment: environment)
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") && $0.contains("t=6") })
        running.send("bookmark the storm begins\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmark\"") })
        running.send(#"{"command":"bookmark","id":"b2"}"# + "\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"ack\"") && $0.contains("b2") })
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmark\"") && $0.contains("\"note\":null") })
        running.send("bookmarks\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmarks\"") })
        running.send("go bookmark:99\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("bookmark-not-found") })
        let made = try Self.lines(running, type: "bookmark")
        try #require(made.count == 2)
        let first = try #require(made[0]["locator"]?.objectValue)
        #expect(made[0]["note"] == "the storm begins")
        let markedAt = try #require(PlayCommandTests.publicationTime(of: first))
        #expect(markedAt > 30 && markedAt < 40, "bookmarked at \(markedAt) s")
        let listed = try #require(try Self.lines(running, type: "bookmarks").last?["bookmarks"]?.arrayValue)
        #expect(listed.count == 2 && listed[0].objectValue?["id"] == made[0]["id"])
        // Once playback is 2 s past it, back to the first bookmark: the positions heard next start there.
        #expect(running.waitForLine(timeout: 10) { line in
            guard line.contains("\"type\":\"position\""), let event = try? PlayCommandTests.object(line),
                  let time = event["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime) else { return false }
            return time > markedAt + 2
        })
        let id = try #require(made[0]["id"]?.intValue)
        let before = running.outputLines.count
        running.send("go bookmark:\(id)\n")
        let deadline = Date().addingTimeInterval(10)
        var after: [JSONObject] = []
        while after.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let since = Array(running.outputLines[before...])
            guard let ack = since.firstIndex(where: { $0.contains("\"type\":\"ack\"") && $0.contains("\"go\"") }) else { continue }
            after = try since[ack...].filter { $0.contains("\"type\":\"position\"") }.map(PlayCommandTests.object)
        }
        let heard = try #require(after.first?["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(abs(heard - markedAt) < 0.6, "went to \(heard) s, the bookmark is at \(markedAt) s")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        if EventSchemaValidator.isAvailable { try EventSchemaValidator.validate(running.outputLines) }

        let list = try ProcessRunner.raudio(["bookmarks", PlayCommandTests.sampleBook], environment: environment)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.outputLines.count == 2)
        if ReadiumValidator.isAvailable { try ReadiumValidator.validate(.locator, list.standardOutput) }
        #expect(try ProcessRunner.raudio(["bookmarks", PlayCommandTests.sampleBook, "--human"], environment: environment).standardOutput.contains("the storm begins"))
        #expect(try ProcessRunner.raudio(["bookmarks", PlayCommandTests.sampleBook, "--delete", String(id)], environment: environment).status == 0)
        #expect(try ProcessRunner.raudio(["bookmarks", PlayCommandTests.sampleBook], environment: environment).outputLines.count == 1)
        let again = try ProcessRunner.raudio(["bookmarks", PlayCommandTests.sampleBook, "--delete", String(id)], environment: environment)
        #expect(again.status == 64 && again.standardError.contains("has no bookmark \(id)"), "\(again.standardError)")
    }

    /// A spoken book's bookmark is a text locator quoting the sentence heard, for a visual reader.
    @Test func aSpokenBookmarkQuotesTheSentence() throws {
        let state = try TemporaryDirectory()
        let running = try RunningProcess(ProcessRunner.raudioExecutable, ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime"],
                                         environment: ["RAUDIO_STATE_DIR": state.url.path])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"range\"") })
        running.send("bookmark\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmark\"") })
        running.send("quit\n")
        _ = running.finish(timeout: 10)
        let bookmark = try #require(try Self.lines(running, type: "bookmark").first)
        let locator = try #require(bookmark["locator"]?.objectValue)
        let quote = try #require(locator["text"]?.objectValue?["highlight"]?.stringValue)
        let spoken = try Self.lines(running, type: "utterance").compactMap { $0["text"]?.stringValue }
        #expect(spoken.contains { $0.contains(quote) || quote.contains($0) }, "the bookmark quotes \(quote)")
    }

    @Test func withoutStateABookmarkIsRefusedClearly() throws {
        // In real time: rendered as fast as decoding allows, the 2 s can be over before stdin's line is read.
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--no-state", "--duration", "2"],
                                              input: Data("bookmark\n".utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("state-unavailable"), "\(result.standardOutput.suffix(400))")
    }

    /// Bookmarks `book` with `note` once its first position (or utterance) is heard, then quits.
    static func bookmark(_ arguments: [String], note: String, environment: [String: String]) throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable, arguments + ["--output", "null", "--realtime"], environment: environment)
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") || $0.contains("\"type\":\"utterance\"") })
        running.send("bookmark \(note)\n")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"bookmark\"") })
        running.send("quit\n")
        #expect(running.finish(timeout: 20))
    }

    /// Issue 36: `raudio bookmarks` without a book lists every book's bookmarks, each with its book; `--delete ID`
    /// finds the bookmark's book by itself.
    @Test func everyBooksBookmarksAreListedWithoutABook() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path]
        try Self.bookmark(["play", PlayCommandTests.sampleBook], note: "in the audiobook", environment: environment)
        try Self.bookmark(["speak", SpeakCommandTests.sampleEPUB], note: "in the text", environment: environment)
        let listed = try ProcessRunner.raudio(["bookmarks"], environment: environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        let objects = try listed.outputLines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        #expect(Set(objects.compactMap { $0["note"]?.stringValue }) == ["in the audiobook", "in the text"])
        #expect(Set(objects.compactMap { $0["book"]?.objectValue?["title"]?.stringValue }).count == 2, "\(objects)")
        let human = try ProcessRunner.raudio(["bookmarks", "--human"], environment: environment).standardOutput
        #expect(human.contains("The Last Lamp of Gull Rock") && human.contains("in the text"), "\(human)")
        let id = try #require(objects.first { $0["note"]?.stringValue == "in the text" }?["id"]?.intValue)
        #expect(try ProcessRunner.raudio(["bookmarks", "--delete", String(id)], environment: environment).status == 0)
        let after = try ProcessRunner.raudio(["bookmarks"], environment: environment).outputLines
        #expect(after.count == 1 && after[0].contains("in the audiobook"), "\(after)")
        #expect(try ProcessRunner.raudio(["bookmarks", "--delete", String(id)], environment: environment).status == 64)
    }
}
