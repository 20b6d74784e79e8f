// SPDX-License-Identifier: GPL-3.0-or-later

/// One share of a book's render, for one machine of several (`raudio render --shard I/N`): a run of the book's
/// blocks of utterances (`RenderSettings.blockSize`), cut where the text is shared evenly. Every machine cuts
/// the same book the same way, and a block is synthesized the same wherever it is (a fresh eSpeak NG process
/// each), so the shares' audio, merged, is what one render makes.
public struct RenderShard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based: share `number` of `count`.
    public let number: Int
    public let count: Int

    /// The most shares a book is cut into.
    public static let maximumCount = 10_000

    public init?(number: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
    }

    /// `I/N`, as `--shard` takes it (`2/3`); nil when malformed or out of range.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(number: number, count: count)
    }

    public var description: String { "\(number)/\(count)" }

    /// The blocks of this share, given each block's weight (its text's UTF-8 bytes): share k of N starts at the
    /// first block whose text before it reaches k-1 N-ths of the book's. Contiguous, in order, every block in
    /// exactly one share; a share is empty when the book has fewer blocks than shares.
    public func blocks(weights: [Int]) -> Range<Int> {
        Self.start(of: number, count: count, weights: weights)..<Self.start(of: number + 1, count: count, weights: weights)
    }

    /// The share of `count` that holds `block`.
    public static func share(holding block: Int, count: Int, weights: [Int]) -> Int {
        var low = 1
        var high = count
        // The last share whose start is at or before the block.
        while low < high {
            let middle = (low + high + 1) / 2
            if start(of: middle, count: count, weights: weights) <= block { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private static func start(of share: Int, count: Int, weights: [Int]) -> Int {
        if share <= 1 { return 0 }
        if share > count { return weights.count }
        let total = weights.reduce(0) { $0 + max($1, 0) }
        let target = total * (share - 1) / count
        var before = 0
        for (block, weight) in weights.enumerated() {
            if before >= target { return block }
            before += max(weight, 0)
        }
        return weights.count
    }
}
