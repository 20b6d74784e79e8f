// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension PlayerCommandParser {
    /// The JSON form: one object with `command`, an optional `id` and `v`, and the command's keys.
    ///
    /// Unknown keys are refused, so that a misspelt key (`"valeu"`) is not silently ignored. Parsing is
    /// strict: a trailing comma, NaN, Infinity and comments are refused.
    public static func parseJSON(_ text: Substring) throws(CommandParseError) -> PlayerCommandRequest {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text.utf8, rejectingDuplicateKeys: true)
        } catch {
            throw CommandParseError(.malformed, "\(quoted(String(text))) is not valid JSON (\(error)); send one object per line, like {\"command\":\"play\",\"id\":1}")
        }
        guard case .object(let object) = value else {
            throw CommandParseError(.malformed, "a command must be a JSON object, got \(value.kindName); send {\"command\":\"play\"}")
        }
        let id = try requestID(object["id"])
        if let version = object["v"], version.doubleValue != 1 {
            throw CommandParseError(.badValue, "protocol version \(quoted(render(version))) is not supported; send \"v\":1 or leave it out", id: id)
        }
        guard let commandValue = object["command"] else {
            throw CommandParseError(.malformed, "the object has no \"command\" key; send {\"command\":\"play\"}", id: id)
        }
        guard case .string(let word) = commandValue else {
            throw CommandParseError(.malformed, "\"command\" must be a string, got \(commandValue.kindName); send {\"command\":\"play\"}", id: id)
        }
        let name = try commandName(word, id: id)
        let keys = expectedKeys(for: name)
        if let unexpected = object.keys.sorted().first(where: { !keys.contains($0) && !["command", "id", "v"].contains($0) }) {
            throw CommandParseError(.malformed, "\(name.rawValue) has no key \(quoted(unexpected)); send \(name.jsonUsage)", id: id)
        }
        let parsed = try parsedValue(for: name, in: object, id: id)
        return PlayerCommandRequest(command: name.command(with: parsed), id: id)
    }

    private static func expectedKeys(for name: PlayerCommand.Name) -> Set<String> {
        switch name.argument {
        case .none: []
        case .seekTarget: ["to", "by"]
        case .locator: ["locator", "bookmark"]
        case .word, .number, .sleep, .chapter: ["value"]
        case .note: ["note"]
        }
    }

    /// A string or finite number; `null` or no key means no id.
    private static func requestID(_ value: JSONValue?) throws(CommandParseError) -> CommandID? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?:
            guard string.utf8.count <= maximumIDBytes else {
                throw CommandParseError(.malformed, "\"id\" is \(string.utf8.count) bytes, more than the \(maximumIDBytes) allowed; send for example \"id\":7")
            }
            return .string(string)
        case .integer(let number)?: return .integer(number)
        case .number(let number)?: return .number(number)
        case let other?:
            throw CommandParseError(.malformed, "\"id\" must be a string or a number, got \(other.kindName); send for example \"id\":7")
        }
    }

    private static func parsedValue(
        for name: PlayerCommand.Name, in object: JSONObject, id: CommandID?
    ) throws(CommandParseError) -> PlayerCommand.ParsedValue {
        switch name.argument {
        case .none:
            return .none
        case .seekTarget:
            return .seekTarget(try seekTarget(to: object["to"], by: object["by"], id: id))
        case .locator:
            if let bookmark = object["bookmark"] {
                guard object["locator"] == nil else {
                    throw CommandParseError(.badValue, "go takes \"locator\" or \"bookmark\", not both; send \(name.jsonUsage)", id: id)
                }
                guard let number = bookmark.doubleValue, number >= 1, number == number.rounded(), number < 1e15 else {
                    throw CommandParseError(.badValue, "\"bookmark\" must be a bookmark id (a whole number from 1), got \(bookmark.kindName) \(quoted(render(bookmark))); send \(name.jsonUsage)", id: id)
                }
                return .bookmark(Int64(number))
            }
            guard let locator = object["locator"] else {
                throw CommandParseError(.missingValue, "go needs a \"locator\" object; send \(name.jsonUsage)", id: id)
            }
            guard case .object = locator else {
                throw CommandParseError(.badValue, "\"locator\" must be an object, got \(locator.kindName); send \(name.jsonUsage)", id: id)
            }
            return .locator(locator.data)
        case .word:
            guard let value = object["value"] else {
                throw CommandParseError(.missingValue, "\(name.rawValue) needs a \"value\"; send \(name.jsonUsage)", id: id)
            }
            if case .string(let word) = value {
                try checkLength(Substring(word), maximum: maximumWordBytes, of: "\(name.rawValue) \"value\"", usage: name.jsonUsage, id: id)
            }
            guard case .string(let word) = value, !word.isEmpty, !word.contains(where: \.isWhitespace) else {
                throw CommandParseError(.badValue, "\(name.rawValue) \"value\" must be one word as a string, got \(value.kindName) \(quoted(render(value))); send \(name.jsonUsage)", id: id)
            }
            return .word(word)
        case .chapter:
            let value = object["value"]
            let text: String? = switch value {
            case .string(let text)?: text
            case .integer(let number)?: "\(number)"
            default: nil
            }
            guard let text, let request = ChapterRequest(parsing: text) else {
                throw CommandParseError(value == nil ? .missingValue : .badValue, "chapter needs a \"value\": \"next\", \"previous\" or a number from 1; send \(name.jsonUsage)", id: id)
            }
            return .chapter(request)
        case .sleep:
            let value = object["value"]
            let text: String? = switch value {
            case .string(let text)?: text
            case .integer(let minutes)?: "\(minutes)"
            case .number(let minutes)?: "\(minutes)"
            default: nil
            }
            guard let value else {
                throw CommandParseError(.missingValue, "sleep needs a \"value\"; send \(name.jsonUsage)", id: id)
            }
            if let text { try checkLength(Substring(text), maximum: maximumTimeBytes, of: "sleep \"value\"", usage: name.jsonUsage, id: id) }
            guard let text, let request = SleepRequest(parsing: text) else {
                throw CommandParseError(.badValue, "sleep \"value\" \(quoted(render(value))) is not a sleep time (\"30m\", \"+5m\", \"chapter\", \"off\", or minutes); send \(name.jsonUsage)", id: id)
            }
            return .sleep(request)
        case .note:
            switch object["note"] {
            case nil, .null?: return .note(nil)
            case .string(let text)?:
                try checkLength(Substring(text), maximum: maximumNoteBytes, of: "bookmark \"note\"", usage: name.jsonUsage, id: id)
                return .note(text.isEmpty ? nil : text)
            case let other?:
                throw CommandParseError(.badValue, "\"note\" must be a string, got \(other.kindName); send \(name.jsonUsage)", id: id)
            }
        case .number(let range, _):
            guard let value = object["value"] else {
                throw CommandParseError(.missingValue, "\(name.rawValue) needs a \"value\"; send \(name.jsonUsage)", id: id)
            }
            guard let number = value.doubleValue else {
                throw CommandParseError(.badValue, "\(name.rawValue) \"value\" must be a number, got \(value.kindName) \(quoted(render(value))); send \(name.jsonUsage)", id: id)
            }
            return .number(try checked(number, in: range, for: name, id: id))
        }
    }

    /// Exactly one of `to` (seconds or a time string, 0 or more) and `by` (signed seconds).
    private static func seekTarget(to: JSONValue?, by: JSONValue?, id: CommandID?) throws(CommandParseError) -> SeekTarget {
        let usage = PlayerCommand.Name.seek.jsonUsage
        switch (to, by) {
        case (nil, nil):
            throw CommandParseError(.missingValue, "seek needs \"to\" (a position) or \"by\" (an offset); send \(usage)", id: id)
        case (.some, .some):
            throw CommandParseError(.badValue, "seek takes \"to\" or \"by\", not both; send \(usage)", id: id)
        case (let to?, nil):
            if let seconds = to.doubleValue, seconds >= 0 {
                return .absolute(seconds: seconds)
            }
            switch to {
            case .string(let text):
                try checkLength(Substring(text), maximum: maximumTimeBytes, of: "seek \"to\"", usage: usage, id: id)
                guard let seconds = TimeParser.seconds(Substring(text.trimmingCharacters(in: .whitespaces))) else {
                    throw CommandParseError(.badValue, "\"to\" \(quoted(text)) is not a time (h:mm:ss, mm:ss or seconds); send \(usage)", id: id)
                }
                return .absolute(seconds: seconds)
            default:
                throw CommandParseError(.badValue, "\"to\" must be 0 or more seconds or a time like \"1:02:03\", got \(to.kindName) \(quoted(render(to))); send \(usage)", id: id)
            }
        case (nil, let by?):
            guard let seconds = by.doubleValue else {
                throw CommandParseError(.badValue, "\"by\" must be a number of seconds, got \(by.kindName) \(quoted(render(by))); send \(usage)", id: id)
            }
            return .relative(seconds: seconds)
        }
    }

    private static func render(_ value: JSONValue) -> String {
        String(decoding: value.data, as: UTF8.self)
    }
}
