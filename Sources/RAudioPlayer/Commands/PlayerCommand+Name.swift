// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension PlayerCommand {
    /// The word of each command and the kind of value it takes: the parser's table.
    public enum Name: String, Sendable, CaseIterable {
        case play, pause, toggle, stop, quit, seek, forward, back, next, previous, go, speed, volume, status, voice, pitch, escape, bookmark, bookmarks, sleep, chapter, toc

        /// The value a command takes after its word (or in its JSON keys).
        public enum Argument {
            /// Nothing: `play`.
            case none
            /// A time, absolute or signed: `seek 1:02:03`, `seek -10`; JSON `to` or `by`.
            case seekTarget
            /// A JSON object: `go {"href":...}`; JSON `locator`.
            case locator
            /// A word: `voice fr`; JSON `value` (a string).
            case word
            /// A decimal number in `range`: `speed 1.5`; JSON `value`. `example` is shown in errors.
            case number(ClosedRange<Double>, example: String)
            /// Optional free text, the rest of the line: `bookmark the storm begins`; JSON `note`.
            case note
            /// A sleep timer request: `sleep 30m`, `sleep +5m`, `sleep chapter`, `sleep off`; JSON `value`.
            case sleep
            /// `chapter next`, `chapter previous`, `chapter 3`; JSON `value` ("next", "previous" or a number).
            case chapter
        }

        public var argument: Argument {
            switch self {
            case .play, .pause, .toggle, .stop, .quit, .forward, .back, .next, .previous, .status, .escape, .bookmarks, .toc: .none
            case .chapter: .chapter
            case .bookmark: .note
            case .sleep: .sleep
            case .seek: .seekTarget
            case .go: .locator
            case .speed: .number(0.5...3.0, example: "1.5")
            case .volume: .number(0...2, example: "0.8")
            case .pitch: .number(0.5...2.0, example: "1.2")
            case .voice: .word
            }
        }

        /// Builds the command from its parsed value; the value's kind always matches `argument`.
        public func command(with value: ParsedValue) -> PlayerCommand {
            switch (self, value) {
            case (.play, _): .play
            case (.pause, _): .pause
            case (.toggle, _): .toggle
            case (.stop, _): .stop
            case (.quit, _): .quit
            case (.forward, _): .forward
            case (.back, _): .back
            case (.next, _): .next
            case (.previous, _): .previous
            case (.status, _): .status
            case (.escape, _): .escape
            case (.bookmarks, _): .bookmarks
            case (.bookmark, .note(let note)): .bookmark(note: note)
            case (.go, .bookmark(let id)): .goToBookmark(id: id)
            case (.sleep, .sleep(let request)): .sleep(request)
            case (.chapter, .chapter(let request)): .chapter(request)
            case (.toc, _): .toc
            case (.seek, .seekTarget(let target)): .seek(target)
            case (.go, .locator(let json)): .go(locatorJSON: json)
            case (.speed, .number(let value)): .speed(value)
            case (.volume, .number(let value)): .volume(value)
            case (.pitch, .number(let value)): .pitch(value)
            case (.voice, .word(let word)): .voice(word)
            case (.seek, _), (.go, _), (.speed, _), (.volume, _), (.pitch, _), (.voice, _), (.bookmark, _), (.sleep, _), (.chapter, _): .status
            }
        }

        /// How to type the command, for error messages: `seek 1:02:03 | seek +30`.
        public var usage: String {
            switch argument {
            case .none: rawValue
            case .seekTarget: "seek 1:02:03 | seek 3723.5 | seek +30 | seek -10"
            case .locator: #"go {"href":"track2.mp3","type":"audio/mpeg","locations":{"fragments":["t=30"]}} | go bookmark:3"#
            case .note: "bookmark | bookmark a note about this place"
            case .sleep: "sleep 30m | sleep 1h30m | sleep +5m | sleep chapter | sleep off"
            case .chapter: "chapter next | chapter previous | chapter 3"
            case .word: "\(rawValue) fr (a voice identifier or a language tag)"
            case .number(let range, let example): "\(rawValue) \(example) (from \(range.lowerBound.formatted) to \(range.upperBound.formatted))"
            }
        }

        /// How to send the command as JSON, for error messages.
        public var jsonUsage: String {
            switch argument {
            case .none: #"{"command":"\#(rawValue)"}"#
            case .seekTarget: #"{"command":"seek","to":3723.5} or {"command":"seek","by":-10}"#
            case .locator: #"{"command":"go","locator":{"href":"track2.mp3","type":"audio/mpeg"}} or {"command":"go","bookmark":3}"#
            case .note: #"{"command":"bookmark","note":"the storm begins"}"#
            case .sleep: #"{"command":"sleep","value":"30m"}"#
            case .chapter: #"{"command":"chapter","value":"next"} or {"command":"chapter","value":3}"#
            case .word: #"{"command":"\#(rawValue)","value":"fr"}"#
            case .number(_, let example): #"{"command":"\#(rawValue)","value":\#(example)}"#
            }
        }
    }

    /// A command's value once parsed, before it becomes a `PlayerCommand`.
    public enum ParsedValue {
        case none
        case seekTarget(SeekTarget)
        case locator(Data)
        case word(String)
        case number(Double)
        case note(String?)
        case bookmark(Int64)
        case sleep(SleepRequest)
        case chapter(ChapterRequest)
    }
}

extension Double {
    /// `1` rather than `1.0`, `0.5` as `0.5`: numbers as a person types them.
    public var formatted: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
