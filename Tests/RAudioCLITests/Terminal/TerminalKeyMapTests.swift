// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

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
}
