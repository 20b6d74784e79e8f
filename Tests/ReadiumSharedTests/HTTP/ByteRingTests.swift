// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import ReadiumShared

/// The read-ahead's window of bytes: appends at the end, drops from the start, wraps around its storage.
@Suite struct ByteRingTests {
    @Test func bytesWrapAroundAndComeBackInOrder() {
        let ring = ByteRing(capacity: 8)
        ring.reset(at: 100)
        let first: [UInt8] = [1, 2, 3, 4, 5, 6]
        #expect(first.withUnsafeBytes { ring.append($0) } == 6)
        ring.discard(before: 104)
        let second: [UInt8] = [7, 8, 9, 10, 11, 12, 13]
        // Two bytes held, six free: the seventh does not fit.
        #expect(second.withUnsafeBytes { ring.append($0) } == 6)
        #expect(ring.start == 104 && ring.end == 112)
        var out = [UInt8](repeating: 0, count: 8)
        #expect(out.withUnsafeMutableBytes { ring.copy(from: 104, into: $0) } == 8)
        #expect(out == [5, 6, 7, 8, 9, 10, 11, 12])
        #expect(out.withUnsafeMutableBytes { ring.copy(from: 112, into: $0) } == 0)
    }

    @Test func discardingPastTheEndKeepsTheEndForTheNextAppend() {
        let ring = ByteRing(capacity: 4)
        ring.reset(at: 0)
        let bytes: [UInt8] = [1, 2, 3]
        _ = bytes.withUnsafeBytes { ring.append($0) }
        ring.discard(before: 50)
        #expect(ring.count == 0 && ring.start == 3 && ring.end == 3)
    }
}
