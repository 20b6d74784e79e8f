// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Testing
@testable import RAudioPlayer

/// The cut of a book into shares (`raudio render --shard I/N`): every block in exactly one share, in order,
/// the text shared evenly, the same cut from the same weights.
@Suite struct RenderShardTests {
    static func shares(_ count: Int, _ weights: [Int]) -> [Range<Int>] {
        (1...count).map { RenderShard(number: $0, count: count)!.blocks(weights: weights) }
    }

    @Test(arguments: [1, 2, 3, 7, 40])
    func everyBlockIsInExactlyOneShareInOrder(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        let weights = (0..<25).map { _ in Int(generator.next() % 2000) }
        let shares = Self.shares(count, weights)
        #expect(shares.first?.lowerBound == 0 && shares.last?.upperBound == weights.count)
        for (before, after) in zip(shares, shares.dropFirst()) { #expect(before.upperBound == after.lowerBound) }
        for block in weights.indices {
            let holding = RenderShard.share(holding: block, count: count, weights: weights)
            #expect(shares[holding - 1].contains(block), "block \(block) said to be in share \(holding) of \(count)")
        }
    }

    @Test func theTextIsSharedEvenly() {
        let weights = Array(repeating: 100, count: 30)
        #expect(Self.shares(3, weights) == [0..<10, 10..<20, 20..<30])
        // Uneven blocks: no share is heavier than its even part by more than one block.
        let uneven = [900, 10, 10, 10, 500, 20, 20, 700, 30, 30, 30, 400]
        let total = uneven.reduce(0, +)
        for share in Self.shares(4, uneven) {
            let weight = uneven[share].reduce(0, +)
            #expect(weight <= total / 4 + (uneven[share].max() ?? 0), "share \(share) weighs \(weight) of \(total)")
        }
    }

    @Test func moreSharesThanBlocksLeavesSomeEmpty() {
        let shares = Self.shares(5, [10, 10])
        #expect(shares.reduce(0) { $0 + $1.count } == 2)
        #expect(shares.filter(\.isEmpty).count == 3)
    }

    @Test func parsing() {
        #expect(RenderShard(parsing: "2/3") == RenderShard(number: 2, count: 3))
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "", "1/10001"] {
            #expect(RenderShard(parsing: bad) == nil, "\(bad)")
        }
    }
}
