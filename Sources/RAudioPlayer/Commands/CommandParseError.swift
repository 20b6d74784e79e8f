// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a stdin command line was refused: a stable code for programs, a message for people.
///
/// The message quotes (truncated) what was wrong and says what to type instead. The CLI answers
/// with an `error` event (`fatal: false`) carrying `code`, `message` and the request's `id` if it was
/// readable, and keeps reading.
public struct CommandParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// Not a command line: broken JSON, JSON that is not an object, no `command` key, unknown keys.
        case malformed = "command-malformed"
        /// The command word is not one of the commands.
        case unknown = "command-unknown"
        /// The value is of the wrong type, out of range, not finite, or not a time.
        case badValue = "command-bad-value"
        /// The command needs a value and got none.
        case missingValue = "command-missing-value"
        /// The line is longer than `PlayerCommandParser.maximumLineBytes`.
        case tooLong = "command-too-long"
    }

    public var code: Code
    public var message: String
    /// The request's id, when the line was JSON with a readable `id`.
    public var id: CommandID?

    public init(_ code: Code, _ message: String, id: CommandID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// `text` in single quotes for an error message: at most `limit` characters, control characters
/// escaped, so that a huge or binary line cannot flood the output.
public func quoted(_ text: String, limit: Int = 40) -> String {
    var result = ""
    for character in text.prefix(limit) {
        if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            for scalar in character.unicodeScalars {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        } else {
            result.append(character)
        }
    }
    return "'" + result + (text.count > limit ? "…'" : "'")
}
