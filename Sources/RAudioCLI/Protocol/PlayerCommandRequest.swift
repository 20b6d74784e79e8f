// SPDX-License-Identifier: GPL-3.0-or-later
/// One parsed stdin line: a command and the `id` the client gave it, to echo in the answer.
public struct PlayerCommandRequest: Sendable, Hashable {
    public var command: PlayerCommand
    /// The JSON form's `id`, echoed in the `ack` (or `error`) event; nil for the words form.
    public var id: CommandID?

    public init(command: PlayerCommand, id: CommandID? = nil) {
        self.command = command
        self.id = id
    }
}

/// A client's request id: a JSON string or number, echoed back as it came.
///
/// Numbers are kept as `Double`; an integral one is written back without a fraction (`7`, not `7.0`).
/// Integers beyond 2^53 lose precision: clients should use strings for such ids.
public enum CommandID: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case number(Double)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .number(let number):
            if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
                try container.encode(Int64(number))
            } else {
                try container.encode(number)
            }
        }
    }

    public var description: String {
        switch self {
        case .string(let string): string
        case .number(let number): number.formatted
        }
    }
}
