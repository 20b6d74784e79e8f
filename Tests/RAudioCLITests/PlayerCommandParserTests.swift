// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// The command, or nil when the line failed or was ignored.
private func command(_ line: String) -> PlayerCommand? {
    (try? PlayerCommandParser.parse(line: line).get())??.command
}

/// The error of a line expected to fail, or nil when it parsed.
private func failure(_ line: String) -> CommandParseError? {
    if case .failure(let error) = PlayerCommandParser.parse(line: line) { return error }
    return nil
}

private func locatorJSON(_ line: String) -> [String: Any]? {
    guard case .go(let data)? = command(line) else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
}

@Suite struct PlayerCommandParserTests {
    // MARK: Words and JSON agree

    @Test(arguments: [
        ("play", PlayerCommand.play), ("pause", .pause), ("toggle", .toggle), ("stop", .stop), ("quit", .quit),
        ("forward", .forward), ("back", .back), ("next", .next), ("previous", .previous), ("status", .status),
        ("speed 1.5", .speed(1.5)), ("volume 0.8", .volume(0.8)), ("volume 0", .volume(0)), ("volume 1", .volume(1)),
        ("speed 0.5", .speed(0.5)), ("speed 3", .speed(3)),
        ("seek 1:02:03", .seek(.absolute(seconds: 3723))), ("seek 3723.5", .seek(.absolute(seconds: 3723.5))),
        ("seek 02:03", .seek(.absolute(seconds: 123))), ("seek 1:02:03.25", .seek(.absolute(seconds: 3723.25))),
        ("seek 90:00", .seek(.absolute(seconds: 5400))), ("seek 0", .seek(.absolute(seconds: 0))),
        ("seek +30", .seek(.relative(seconds: 30))), ("seek -10", .seek(.relative(seconds: -10))),
        ("seek -1:30", .seek(.relative(seconds: -90))), ("seek +0.5", .seek(.relative(seconds: 0.5))),
    ])
    func wordsParseToTheirCommand(line: String, expected: PlayerCommand) {
        #expect(command(line) == expected)
    }

    @Test(arguments: [
        (#"{"command":"play"}"#, PlayerCommand.play), (#"{"command":"quit"}"#, .quit),
        (#"{"command":"seek","to":3723.5}"#, .seek(.absolute(seconds: 3723.5))),
        (#"{"command":"seek","to":"1:02:03"}"#, .seek(.absolute(seconds: 3723))),
        (#"{"command":"seek","by":30}"#, .seek(.relative(seconds: 30))),
        (#"{"command":"seek","by":-10}"#, .seek(.relative(seconds: -10))),
        (#"{"command":"forward"}"#, .forward), (#"{"command":"next"}"#, .next),
        (#"{"command":"speed","value":1.5}"#, .speed(1.5)), (#"{"command":"volume","value":0}"#, .volume(0)),
        (#"{"command":"status"}"#, .status), (#"{"command":"PLAY","v":1}"#, .play),
        (#"  {"command" : "pause"}  "#, .pause),
    ])
    func jsonParsesToTheirCommand(line: String, expected: PlayerCommand) {
        #expect(command(line) == expected)
    }

    @Test func voiceAndPitchParseAndRefuseBadValues() {
        #expect(command("voice en-GB") == .voice("en-GB"))
        #expect(command(#"{"command":"pitch","value":0.5}"#) == .pitch(0.5))
        #expect(failure("voice")?.code == .missingValue)
        #expect(failure("voice en gb")?.code == .badValue)
        #expect(failure(#"{"command":"voice","value":3}"#)?.code == .badValue)
        #expect(failure("pitch 3")?.code == .badValue)
    }

    @Test func everyCommandNameParsesInBothForms() {
        for name in PlayerCommand.Name.allCases {
            let words: String
            let json: String
            switch name.argument {
            case .none: (words, json) = (name.rawValue, #"{"command":"\#(name.rawValue)"}"#)
            case .seekTarget: (words, json) = ("seek 5", #"{"command":"seek","to":5}"#)
            case .locator: (words, json) = (#"go {"href":"a.mp3"}"#, #"{"command":"go","locator":{"href":"a.mp3"}}"#)
            case .word: (words, json) = ("\(name.rawValue) fr", #"{"command":"\#(name.rawValue)","value":"fr"}"#)
            case .number(let range, _): (words, json) = ("\(name.rawValue) \(range.upperBound)", #"{"command":"\#(name.rawValue)","value":\#(range.upperBound)}"#)
            case .note: (words, json) = ("\(name.rawValue) a note", #"{"command":"\#(name.rawValue)","note":"a note"}"#)
            case .sleep: (words, json) = ("sleep 30m", #"{"command":"sleep","value":"30m"}"#)
            case .chapter: (words, json) = ("chapter 2", #"{"command":"chapter","value":2}"#)
            }
            #expect(command(words)?.name == name.rawValue, "\(words)")
            #expect(command(json) == command(words), "\(json)")
        }
    }

    @Test func bookmarksParseInBothForms() {
        #expect(command("bookmark") == .bookmark(note: nil))
        #expect(command("bookmark  the storm begins ") == .bookmark(note: "the storm begins"))
        #expect(command(#"{"command":"bookmark"}"#) == .bookmark(note: nil))
        #expect(command(#"{"command":"bookmark","note":"ici"}"#) == .bookmark(note: "ici"))
        #expect(command("bookmarks") == .bookmarks)
        #expect(command("go bookmark:12") == .goToBookmark(id: 12))
        #expect(command(#"{"command":"go","bookmark":12}"#) == .goToBookmark(id: 12))
        #expect(failure("go bookmark:x")?.code == .badValue)
        #expect(failure("go bookmark:0")?.code == .badValue)
        #expect(failure(#"{"command":"go","bookmark":1.5}"#)?.code == .badValue)
        #expect(failure(#"{"command":"go","bookmark":1,"locator":{"href":"a"}}"#)?.code == .badValue)
        #expect(failure(#"{"command":"bookmark","note":3}"#)?.code == .badValue)
        #expect(failure("bookmarks now")?.code == .badValue)
    }

    // MARK: Ids, case and whitespace

    @Test func jsonIdIsEchoedAsStringOrNumber() throws {
        let withNumber = try PlayerCommandParser.parse(line: #"{"command":"play","id":7}"#).get()
        #expect(withNumber?.id == .integer(7))
        let withString = try PlayerCommandParser.parse(line: #"{"id":"abc-1","command":"pause"}"#).get()
        #expect(withString?.id == .string("abc-1"))
        let withNull = try PlayerCommandParser.parse(line: #"{"command":"play","id":null}"#).get()
        #expect(withNull?.id == nil)
        #expect(try PlayerCommandParser.parse(line: "play").get()?.id == nil)
    }

    @Test func integralIdIsWrittenBackWithoutFraction() throws {
        let encoded = try JSONEncoder().encode([CommandID.number(7), .number(2.5), .string("x")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"[7,2.5,"x"]"#)
    }

    @Test func errorsCarryTheIdWhenItWasReadable() {
        #expect(failure(#"{"command":"speed","value":9,"id":"r1"}"#)?.id == .string("r1"))
        #expect(failure(#"{"command":"fly","id":3}"#)?.id == .integer(3))
    }

    @Test(arguments: ["PLAY", "Play", "  play  ", "\tplay\r\n", "play\n"])
    func wordsAreCaseInsensitiveAndTrimmed(line: String) {
        #expect(command(line) == .play)
    }

    @Test(arguments: ["SEEK +30", "seek    +30", "Seek\t+30 "])
    func valuesFollowAnyWhitespace(line: String) {
        #expect(command(line) == .seek(.relative(seconds: 30)))
    }

    @Test(arguments: ["", "   ", "\n", "\r\n", "# a comment", "  # play"])
    func blankAndCommentLinesAreIgnored(line: String) throws {
        #expect(try PlayerCommandParser.parse(line: line).get() == nil)
    }

    // MARK: go

    @Test func goKeepsTheLocatorAsJSON() {
        let words = locatorJSON(#"go {"href":"track2.mp3","type":"audio/mpeg","locations":{"fragments":["t=30"],"position":3}}"#)
        #expect(words?["href"] as? String == "track2.mp3")
        let locations = words?["locations"] as? [String: Any]
        #expect(locations?["fragments"] as? [String] == ["t=30"])
        #expect(locations?["position"] as? Int == 3)
        let json = locatorJSON(#"{"command":"go","locator":{"href":"track2.mp3","locations":{"progression":0.25}}}"#)
        #expect((json?["locations"] as? [String: Any])?["progression"] as? Double == 0.25)
    }

    @Test func goLocatorIntegersStayIntegersAndKeysKeepTheirOrder() throws {
        guard case .go(let data)? = command(#"go {"locations":{"position":3},"href":"a"}"#) else {
            Issue.record("go did not parse")
            return
        }
        #expect(String(decoding: data, as: UTF8.self) == #"{"locations":{"position":3},"href":"a"}"#)
    }

    @Test(arguments: [
        ("go", CommandParseError.Code.missingValue), ("go track2.mp3", .badValue), (#"go ["a"]"#, .badValue),
        (#"go {"href":"#, .badValue), (#"{"command":"go"}"#, .missingValue),
        (#"{"command":"go","locator":"track2.mp3"}"#, .badValue),
    ])
    func goWithoutALocatorObjectIsRefused(line: String, code: CommandParseError.Code) {
        #expect(failure(line)?.code == code)
    }
}
