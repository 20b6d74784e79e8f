// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The Snippet of the library's documentation (Snippets/PlayABook.swift), built with the package, run as
/// an app would run it: twice on the sample audiobook with one state folder. The first run moves to the next
/// chapter, bookmarks it and is paused by the sleep timer; the second resumes there.
@Suite struct PlayABookSnippetTests {
    static var snippet: URL {
        ProcessRunner.builtProductsFolder.appendingPathComponent("PlayABook")
    }

    @Test func anAppResumesBookmarksMovesByChapterAndSleeps() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-snippet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let book = Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook").path
        let first = try ProcessRunner.run(Self.snippet, [book, state.path], timeout: 60)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.outputLines == [
            "opened: The Last Lamp of Gull Rock, 3 chapters", "chapter 1: Chapter 1: The Storm", "chapter 2: The lamp goes out",
            "bookmark 1: where the story starts", "the sleep timer paused playback", "exit status 0",
        ])
        let second = try ProcessRunner.run(Self.snippet, [book, state.path], timeout: 60)
        #expect(second.status == 0, "\(second.standardError)")
        let lines = second.outputLines
        #expect(lines.count == 7, "\(lines)")
        // The app prints "opened" from its view's task and "resuming at" from the session's start, in
        // either order. Where the sleep timer paused it: in the second chapter, about two seconds in (15.26 s + 2 s).
        let opening = Array(lines.prefix(2))
        #expect(opening.contains("opened: The Last Lamp of Gull Rock, 3 chapters"), "\(opening)")
        #expect(opening.contains { $0.hasPrefix("resuming at 0:0") && $0.contains(" into The lamp goes out · 0:1") }, "\(opening)")
        #expect(Array(lines.dropFirst(2)) == [
            "chapter 2: The lamp goes out", "chapter 3: Chapter 2: The Ship", "bookmark 2: where the story starts",
            "the sleep timer paused playback", "exit status 0",
        ])
    }
}
