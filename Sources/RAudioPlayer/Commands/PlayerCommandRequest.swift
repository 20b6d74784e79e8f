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
    /// A whole number that fits in 64 bits, kept exact (a Double would round ids past 2^53).
    case integer(Int64)
    case number(Double)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .integer(let integer): try container.encode(integer)
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
        case .integer(let integer): String(integer)
        case .number(let number): number.formatted
        }
    }
}
