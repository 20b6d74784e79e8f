// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

private func failure(_ line: String) -> CommandParseError? {
    if case .failure(let error) = PlayerCommandParser.parse(line: line) { return error }
    return nil
}

@Suite struct PlayerCommandParserErrorTests {
    @Test(arguments: [
        "{", "{\"command\":", "{\"command\":\"play\"", "{command:play}", "{'command':'play'}",
        "{\"command\":\"speed\",\"value\":NaN}", "{\"command\":\"speed\",\"value\":Infinity}",
        "{\"command\":\"speed\",\"value\":-Infinity}", "{\"command\":\"play\"} trailing",
    ])
    func brokenJSONIsMalformed(line: String) {
        let error = failure(line)
        #expect(error?.code == .malformed)
        #expect(error?.message.contains("not valid JSON") == true)
    }

    @Test(arguments: [
        #"{}"#, #"{"cmd":"play"}"#, #"{"command":1}"#, #"{"command":null}"#, #"{"command":["play"]}"#,
        #"{"command":"play","id":true}"#, #"{"command":"play","id":{}}"#, #"{"command":"play","extra":1}"#,
        #"{"command":"speed","valeu":1.5,"value":1}"#,
    ])
    func jsonWithoutAUsableCommandIsMalformed(line: String) {
        #expect(failure(line)?.code == .malformed)
    }

    /// Issue 36: `[1,2]` was answered `command-unknown`; any JSON that is not an object is malformed (docs/events.md).
    @Test(arguments: ["[1,2]", "[]", #"["pause"]"#, #""pause""#, #" [{"command":"pause"}]"#])
    func jsonThatIsNotAnObjectIsMalformed(line: String) {
        let error = failure(line)
        #expect(error?.code == .malformed, "\(line)")
        #expect(error?.message.contains("a JSON command is an object") == true)
    }

    @Test(arguments: ["plya", "fly", "▶️", "🎵🎵🎵", "\u{0}\u{1}\u{2}", "ｐｌａｙ", "play\u{301}", "se\u{200B}ek"])
    func unknownWordsAreUnknownCommands(line: String) {
        let error = failure(line)
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("Commands: play, pause") == true)
    }

    @Test func unknownCommandSuggestsTheNearestOne() {
        #expect(failure("plya")?.message.contains("did you mean 'play'?") == true)
        #expect(failure("volum 0.5")?.message.contains("did you mean 'volume'?") == true)
        #expect(failure("xyzzy")?.message.contains("did you mean") == false)
        #expect(failure(#"{"command":"statsu"}"#)?.message.contains("did you mean 'status'?") == true)
    }

    @Test(arguments: [
        "speed 0.49", "speed 3.01", "speed -1.5", "speed 0", "volume 2.1", "volume -0.1",
        "speed nan", "speed NaN", "speed inf", "speed infinity", "speed 1e0", "speed 0x1p0", "speed 1.5x",
        "speed 1,5", "speed 1.2.3", "speed .", "speed +", "volume 80%", "speed ١٫٥",
        #"{"command":"speed","value":-1.5}"#, #"{"command":"speed","value":"1.5"}"#,
        #"{"command":"speed","value":true}"#, #"{"command":"volume","value":null}"#,
        #"{"command":"speed","value":[1.5]}"#,
    ])
    func numbersOutOfRangeOrNotFiniteAreBadValues(line: String) {
        #expect(failure(line)?.code == .badValue, "\(line)")
    }

    @Test func numberTooLargeForADoubleIsRefused() {
        let error = failure(#"{"command":"volume","value":1e400}"#)
        #expect(error?.code == .badValue || error?.code == .malformed)
    }

    @Test func outOfRangeMessageSaysTheRange() {
        let message = failure("speed 4")?.message ?? ""
        #expect(message.contains("speed 4 is out of range"))
        #expect(message.contains("from 0.5 to 3"))
        #expect(message.contains("type: speed 1.5"))
    }

    @Test(arguments: [
        "seek 1:2", "seek 1:60", "seek 1:02:60", "seek 1:60:00", "seek 1::03", "seek :30", "seek 1:02:03:04",
        "seek abc", "seek ++5", "seek +-5", "seek -", "seek 1:02:03x", "seek nan", "seek -inf", "seek 1e3",
        "seek 30s", "seek 1.5:00",
        #"{"command":"seek","to":-1}"#, #"{"command":"seek","to":"-1:00"}"#, #"{"command":"seek","to":true}"#,
        #"{"command":"seek","by":"+30"}"#, #"{"command":"seek","to":1,"by":2}"#, #"{"command":"seek","to":"soon"}"#,
    ])
    func badTimesAreBadValues(line: String) {
        #expect(failure(line)?.code == .badValue, "\(line)")
    }

    @Test(arguments: ["seek", "speed", "volume", "  seek   ", #"{"command":"seek"}"#, #"{"command":"speed"}"#])
    func missingValuesAreReported(line: String) {
        #expect(failure(line)?.code == .missingValue)
    }

    @Test(arguments: ["play now", "stop 1", "status please"])
    func commandsWithoutValueRefuseOne(line: String) {
        #expect(failure(line)?.code == .badValue)
    }

    @Test func unsupportedProtocolVersionIsRefused() {
        #expect(failure(#"{"command":"play","v":2}"#)?.code == .badValue)
    }

    /// Lines that are no JSON object and no JSON array or string are words: unknown ones.
    @Test(arguments: ["42", "null", "quit!"])
    func otherLinesNotStartingWithABraceAreWordsAndFailAsUnknown(line: String) {
        #expect(failure(line)?.code == .unknown)
    }

    @Test func linesOverSixtyFourKibibytesAreRefusedWithoutParsing() {
        let huge = #"{"command":"play","pad":""# + String(repeating: "x", count: 70_000) + #""}"#
        let error = failure(huge)
        #expect(error?.code == .tooLong)
        #expect((error?.message.count ?? .max) < 400)
        let atLimit = "play" + String(repeating: " ", count: PlayerCommandParser.maximumLineBytes - 4)
        #expect((try? PlayerCommandParser.parse(line: atLimit).get()) == PlayerCommandRequest(command: .play))
        #expect(failure(atLimit + " ")?.code == .tooLong)
    }

    @Test func deeplyNestedJSONIsRefusedNotCrashing() {
        let depth = 20_000
        let nested = #"{"command":"go","locator":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let error = failure(nested)
        #expect(error?.code == .malformed || error?.code == .badValue)
    }

    @Test func messagesQuoteTheBadInputTruncatedAndEscaped() {
        let long = "speed " + String(repeating: "9", count: 500)
        let message = failure(long)?.message ?? ""
        #expect(message.contains("'" + String(repeating: "9", count: 40) + "…'"))
        #expect(message.count < 300)
        let control = failure("fly\u{1B}[31m")?.message ?? ""
        #expect(control.contains("\\u{1B}"))
        #expect(!control.contains("\u{1B}"))
    }

    @Test func everyErrorHasAStableCodeAndAMessageSayingWhatToType() {
        let lines = ["plya", "speed 9", "seek", "{", "{}", #"{"command":"seek","to":"x"}"#, "play now"]
        for line in lines {
            guard let error = failure(line) else {
                Issue.record("\(line) parsed")
                continue
            }
            #expect(error.code.rawValue.hasPrefix("command-"))
            #expect(["type", "send", "Commands", "did you mean"].contains { error.message.contains($0) }, "\(error.message)")
        }
    }

    @Test func randomBytesNeverCrashAndFailWithACode() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let line = String(decoding: bytes, as: UTF8.self)
            if case .failure(let error) = PlayerCommandParser.parse(line: line) {
                #expect(CommandParseError.Code.allCases.contains(error.code))
            }
        }
    }
}
