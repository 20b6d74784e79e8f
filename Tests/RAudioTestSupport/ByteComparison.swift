// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Two files' bytes compared as one answer, for `#expect`: `#expect(a == b)` on two large `Data` that differ makes
/// Swift Testing diff them element by element for its message, which takes minutes on an audio file (the test seems
/// to hang instead of failing). `#expect(ByteComparison(a, b).isSame, "\(comparison)")` fails at once and says where.
public struct ByteComparison: CustomStringConvertible, Sendable {
    public let first: Data
    public let second: Data

    public init(_ first: Data, _ second: Data) {
        self.first = first
        self.second = second
    }

    /// Reads both files.
    public init(contentsOf first: URL, _ second: URL) throws {
        self.init(try Data(contentsOf: first), try Data(contentsOf: second))
    }

    public var isSame: Bool { first == second }

    /// The offset of the first byte that differs (the shorter one's length when one is a prefix of the other).
    public var firstDifference: Int? {
        guard !isSame else { return nil }
        return zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(first.count, second.count)
    }

    public var description: String {
        guard let offset = firstDifference else { return "the same \(first.count) bytes" }
        return "\(first.count) and \(second.count) bytes, differing from byte \(offset)"
    }
}
