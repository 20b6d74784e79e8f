// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Parses stdin command lines, in words (`seek +30`) or JSON (`{"command":"seek","by":30,"id":7}`).
///
/// Pure: no I/O, callable from any thread. Command words are case-insensitive; surrounding
/// whitespace is ignored; empty lines and lines starting with `#` are ignored (`.success(nil)`).
public enum PlayerCommandParser {
    /// Lines longer than this many UTF-8 bytes are refused (`command-too-long`) without being parsed.
    public static let maximumLineBytes = 64 * 1024
    /// A one-word value (a voice, a language) longer than this is refused before any lookup: no voice
    /// name comes near, and matching a huge word against every voice would stall the session.
    public static let maximumWordBytes = 256
    /// A bookmark's note longer than this is refused.
    public static let maximumNoteBytes = 4096
    /// A string `id` longer than this is refused (it is echoed in every answer).
    public static let maximumIDBytes = 256
    /// A time or sleep value longer than this is refused.
    public static let maximumTimeBytes = 64

    /// Parses one line (with or without its newline): a request, nil for a blank or comment line,
    /// or an error whose message says what to type instead.
    public static func parse(line: String) -> Result<PlayerCommandRequest?, CommandParseError> {
        let byteCount = line.utf8.count
        guard byteCount <= maximumLineBytes else {
            return .failure(CommandParseError(
                .tooLong,
                "the command line is \(byteCount) bytes, more than the \(maximumLineBytes) allowed: \(quoted(line)); send one command per line"
            ))
        }
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty || text.hasPrefix("#") { return .success(nil) }
        // Another JSON value (an array, a string) is a JSON command gone wrong, not an unknown word.
        if text.hasPrefix("[") || text.hasPrefix("\"") {
            return .failure(CommandParseError(.malformed, "a JSON command is an object, such as {\"command\":\"pause\"}; got \(quoted(text))"))
        }
        do {
            if text.hasPrefix("{") {
                return .success(try parseJSON(Substring(text)))
            }

            return .success(try parseWords(Substring(text)))
        } catch {
            return .failure(error)
        }
    }

    /// The words form: a command word, then its value as the rest of the line.
    public static func parseWords(_ text: Substring) throws(CommandParseError) -> PlayerCommandRequest {
        let word = text.prefix { !$0.isWhitespace }
        let rest = text.dropFirst(word.count).trimmingPrefix { $0.isWhitespace }
        let name = try commandName(String(word))
        let value: PlayerCommand.ParsedValue
        switch name.argument {
        case .none:
            guard rest.isEmpty else {
                throw CommandParseError(.badValue, "'\(name.rawValue)' takes no value, got \(quoted(String(rest))); type: \(name.usage)")
            }
            value = .none
        case .seekTarget:
            value = .seekTarget(try seekTarget(words: rest))
        case .locator:
            guard !rest.isEmpty else {
                throw CommandParseError(.missingValue, "'go' needs a locator as a JSON object; type: \(name.usage)")
            }
            if rest.lowercased().hasPrefix("bookmark:") {
                guard let id = Int64(rest.dropFirst("bookmark:".count)), id > 0 else {
                    throw CommandParseError(.badValue, "\(quoted(String(rest))) is not a bookmark; type: go bookmark:3 (an id from the bookmarks command)")
                }
                return PlayerCommandRequest(command: .goToBookmark(id: id))
            }
            guard case .object? = JSONValue.parse(rest), let locator = JSONValue.parse(rest) else {
                throw CommandParseError(.badValue, "the locator \(quoted(String(rest))) is not a JSON object; type: \(name.usage)")
            }
            value = .locator(locator.data)
        case .word:
            guard !rest.isEmpty else {
                throw CommandParseError(.missingValue, "'\(name.rawValue)' needs a value; type: \(name.usage)")
            }
            try checkLength(rest, maximum: maximumWordBytes, of: "'\(name.rawValue)' value", usage: name.usage)
            guard !rest.contains(where: \.isWhitespace) else {
                throw CommandParseError(.badValue, "'\(name.rawValue)' takes one word, got \(quoted(String(rest))); type: \(name.usage)")
            }
            value = .word(String(rest))
        case .note:
            try checkLength(rest, maximum: maximumNoteBytes, of: "bookmark note", usage: name.usage)
            value = .note(rest.isEmpty ? nil : String(rest))
        case .chapter:
            guard let request = ChapterRequest(parsing: String(rest)) else {
                throw CommandParseError(rest.isEmpty ? .missingValue : .badValue, "'chapter' takes next, previous or a number from 1; type: \(name.usage)")
            }
            value = .chapter(request)
        case .sleep:
            guard !rest.isEmpty else {
                throw CommandParseError(.missingValue, "'sleep' needs a time, chapter or off; type: \(name.usage)")
            }
            try checkLength(rest, maximum: maximumTimeBytes, of: "sleep time", usage: name.usage)
            guard let request = SleepRequest(parsing: String(rest)) else {
                throw CommandParseError(.badValue, "\(quoted(String(rest))) is not a sleep time (up to 24 hours); type: \(name.usage)")
            }
            value = .sleep(request)
        case .number(let range, _):
            guard !rest.isEmpty else {
                throw CommandParseError(.missingValue, "'\(name.rawValue)' needs a number; type: \(name.usage)")
            }
            guard let number = TimeParser.decimal(rest) else {
                throw CommandParseError(.badValue, "\(quoted(String(rest))) is not a number; type: \(name.usage)")
            }
            value = .number(try checked(number, in: range, for: name))
        }
        return PlayerCommandRequest(command: name.command(with: value))
    }

    /// `seek 1:02:03`, `seek 3723.5` (absolute) or `seek +30`, `seek -1:30` (relative).
    private static func seekTarget(words rest: Substring) throws(CommandParseError) -> SeekTarget {
        let usage = PlayerCommand.Name.seek.usage
        guard !rest.isEmpty else {
            throw CommandParseError(.missingValue, "'seek' needs a time; type: \(usage)")
        }
        try checkLength(rest, maximum: maximumTimeBytes, of: "seek time", usage: usage)
        let sign = rest.first == "-" ? -1.0 : 1.0
        let isRelative = rest.first == "+" || rest.first == "-"
        guard let seconds = TimeParser.seconds(isRelative ? rest.dropFirst() : rest) else {
            throw CommandParseError(.badValue, "\(quoted(String(rest))) is not a time (h:mm:ss, mm:ss or seconds); type: \(usage)")
        }
        return isRelative ? .relative(seconds: sign * seconds) : .absolute(seconds: seconds)
    }

    /// Refuses a string argument longer than `maximum` UTF-8 bytes (`command-bad-value`), before it
    /// is looked at any further.
    public static func checkLength(_ text: Substring, maximum: Int, of what: String, usage: String, id: CommandID? = nil) throws(CommandParseError) {
        let count = text.utf8.count
        guard count <= maximum else {
            throw CommandParseError(.badValue, "the \(what) is \(count) bytes, more than the \(maximum) allowed: \(quoted(String(text))); type: \(usage)", id: id)
        }
    }

    /// Finds the command for `word`, case-insensitively; suggests the nearest one when unknown.
    public static func commandName(_ word: String, id: CommandID? = nil) throws(CommandParseError) -> PlayerCommand.Name {
        if let name = PlayerCommand.Name(rawValue: word.lowercased()) { return name }
        let all = PlayerCommand.Name.allCases.map(\.rawValue)
        var message = "unknown command \(quoted(word))"
        if word.utf8.count <= 32, let nearest = all.min(by: { editDistance(word.lowercased(), $0) < editDistance(word.lowercased(), $1) }),
           editDistance(word.lowercased(), nearest) <= 2 {
            message += "; did you mean '\(nearest)'?"
        } else {
            message += "."
        }
        message += " Commands: " + all.joined(separator: ", ")
        throw CommandParseError(.unknown, message, id: id)
    }

    /// Refuses a number outside `range` or not finite.
    public static func checked(
        _ number: Double, in range: ClosedRange<Double>, for name: PlayerCommand.Name, id: CommandID? = nil
    ) throws(CommandParseError) -> Double {
        guard number.isFinite, range.contains(number) else {
            throw CommandParseError(
                .badValue,
                "\(name.rawValue) \(number.formatted) is out of range: it goes from \(range.lowerBound.formatted) to \(range.upperBound.formatted); type: \(name.usage)",
                id: id
            )
        }
        return number
    }

    /// Levenshtein distance, for "did you mean" suggestions; long words are not compared.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(16)), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
