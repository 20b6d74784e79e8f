// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer
@testable import RAudioState

/// Each key of the terminal player and the command it sends.
@Suite struct TerminalKeyMapTests {
    @Test func keysOfAnAudiobook() {
        var map = TerminalKeyMap()
        var status = TerminalScreenTests.audiobookStatus()
        status.sleep = .off
        let expectations: [(Key, TerminalAction)] = [
            (.character(" "), .command(.toggle)), (.left, .command(.seek(.relative(seconds: -10)))), (.right, .command(.seek(.relative(seconds: 10)))),
            (.up, .command(.chapter(.previous))), (.down, .command(.chapter(.next))),
            (.character("["), .command(.speed(1.4))), (.character("]"), .command(.speed(1.6))),
            (.character("-"), .command(.volume(0.7))), (.character("+"), .command(.volume(0.9))), (.character("="), .command(.volume(0.9))),
            (.character("b"), .command(.bookmark(note: nil))), (.character("q"), .command(.quit)),
            (.character("?"), .show(.help)), (.character("c"), .show(.chapters(selected: 1))), (.character("x"), .none),
        ]
        for (key, action) in expectations { #expect(map.action(for: key, status: status, overlay: .none) == action, "\(key)") }
    }

    @Test func speechMovesBySentenceAndLimitsHold() {
        var map = TerminalKeyMap()
        var status = PlayerStatus(mode: .speech)
        #expect(map.action(for: .left, status: status, overlay: .none) == .command(.previous))
        #expect(map.action(for: .right, status: status, overlay: .none) == .command(.next))
        status.speed = 3
        status.volume = 0
        #expect(map.action(for: .character("]"), status: status, overlay: .none) == .command(.speed(3)))
        #expect(map.action(for: .character("-"), status: status, overlay: .none) == .command(.volume(0)))
        status.speed = 1.25
        #expect(map.action(for: .character("]"), status: status, overlay: .none) == .command(.speed(1.4)), "back on the 0.1 grid")
        #expect(map.action(for: .character("c"), status: status, overlay: .none) == .none, "no chapter list without a toc")
    }

    @Test func sleepCyclesThroughItsSteps() {
        var map = TerminalKeyMap()
        var status = PlayerStatus(mode: .audiobook)
        var sent: [TerminalAction] = []
        for step in 0..<6 {
            let action = map.action(for: .character("s"), status: status, overlay: .none)
            sent.append(action)
            // What the session's `sleep` events then say.
            status.sleep = switch step % 5 {
            case 3: .endOfChapter
            case 4: .off
            default: .after(remaining: 60, since: 0)
            }
        }
        #expect(sent == [SleepRequest.after(seconds: 900), .after(seconds: 1800), .after(seconds: 3600), .endOfChapter, .off, .after(seconds: 900)].map { .command(.sleep($0)) })
    }

    @Test func theChapterListIsNavigatedAndPicked() {
        var map = TerminalKeyMap()
        let status = TerminalScreenTests.audiobookStatus()
        #expect(map.action(for: .down, status: status, overlay: .chapters(selected: 0)) == .show(.chapters(selected: 1)))
        #expect(map.action(for: .down, status: status, overlay: .chapters(selected: 1)) == .show(.chapters(selected: 1)))
        #expect(map.action(for: .up, status: status, overlay: .chapters(selected: 0)) == .show(.chapters(selected: 0)))
        #expect(map.action(for: .enter, status: status, overlay: .chapters(selected: 1)) == .command(.chapter(.number(2))))
        #expect(map.action(for: .escape, status: status, overlay: .chapters(selected: 1)) == .show(.none))
        #expect(map.action(for: .character("q"), status: status, overlay: .help) == .show(.none), "any key closes the help")
    }

    @Test func theBookmarkListIsAskedForNavigatedAndPicked() {
        var map = TerminalKeyMap()
        var status = TerminalScreenTests.audiobookStatus()
        #expect(map.action(for: .character("m"), status: status, overlay: .none) == .open(.bookmarks(selected: 0), asking: .bookmarks))
        #expect(map.action(for: .enter, status: status, overlay: .bookmarks(selected: 0)) == .none, "the list has not come yet")
        status.apply(.bookmarks([Bookmark(id: 4, locator: "{}", note: nil, created: 0), Bookmark(id: 9, locator: "{}", note: "here", created: 1)]))
        #expect(map.action(for: .down, status: status, overlay: .bookmarks(selected: 0)) == .show(.bookmarks(selected: 1)))
        #expect(map.action(for: .down, status: status, overlay: .bookmarks(selected: 1)) == .show(.bookmarks(selected: 1)))
        #expect(map.action(for: .up, status: status, overlay: .bookmarks(selected: 0)) == .show(.bookmarks(selected: 0)))
        #expect(map.action(for: .enter, status: status, overlay: .bookmarks(selected: 1)) == .command(.goToBookmark(id: 9)))
        #expect(map.action(for: .escape, status: status, overlay: .bookmarks(selected: 1)) == .show(.none))
        #expect(map.action(for: .character(" "), status: status, overlay: .bookmarks(selected: 1)) == .none, "the list keeps the keys")
        status.apply(.bookmark(Bookmark(id: 10, locator: "{}", note: nil, created: 2)))
        #expect(status.bookmarks?.map(\.id) == [4, 9, 10], "a bookmark made since is listed")
    }

    @Test func vCyclesThroughTheVoicesOfTheBooksLanguage() {
        var map = TerminalKeyMap()
        map.voices = ["en-gb", "en-us", "en-us-nyc"]
        var status = PlayerStatus(mode: .speech)
        status.voice = "en-us"
        #expect(map.action(for: .character("v"), status: status, overlay: .none) == .command(.voice("en-us-nyc")))
        status.expect(.voice("en-us-nyc"))
        #expect(map.action(for: .character("v"), status: status, overlay: .none) == .command(.voice("en-gb")), "round to the first")
        map.voices = ["en-us"]
        status.voice = "en-us"
        #expect(map.action(for: .character("v"), status: status, overlay: .none) == .none, "no other voice")
        map.voices = ["en-gb", "en-us"]
        #expect(map.action(for: .character("v"), status: TerminalScreenTests.audiobookStatus(), overlay: .none) == .none, "an audiobook has no voice")
        #expect(TerminalKeyMap.helpLines(for: .speech).map(\.text).contains { $0.contains("v") && $0.contains("voice") })
        #expect(!TerminalKeyMap.helpLines(for: .audiobook).map(\.text).contains { $0.contains("voice") })
        #expect(TerminalKeyMap.helpLines(for: .audiobook).map(\.text).contains { $0.contains("m") && $0.contains("bookmark list") })
    }
}
