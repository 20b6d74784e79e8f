// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import ReadiumShared

/// Bytes fetched in any pieces become whole cache blocks; a jump drops the block in progress.
@Suite struct CacheBlockAssemblerTests {
    static func withCache(_ body: (RemoteByteCache) throws -> Void) rethrows {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-assembler-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(RemoteByteCache(folder: folder, capacity: 64 << 20))
    }

    @Test func piecesAfterTheHeadMakeWholeBlocksIncludingTheShortLastOne() {
        Self.withCache { cache in
            let block = RemoteByteCache.blockSize
            let length = UInt64(block * 2 + 1000)
            let bytes = (0..<Int(length)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let head = Data(bytes[0..<4096])
            var assembler = CacheBlockAssembler(cache: cache, url: "http://x/t.mp3", length: length, head: head)
            var offset = 4096
            for size in [10_000, 100_000, 300_000, 50_000, 999_999] where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                bytes[offset..<end].withUnsafeBytes { assembler.take($0, at: UInt64(offset)) }
                offset = end
            }
            for index in 0..<3 {
                let start = index * block
                let expected = Data(bytes[start..<min(bytes.count, start + block)])
                #expect(cache.block(url: "http://x/t.mp3", length: length, index: UInt64(index)) == expected, "block \(index)")
            }
        }
    }

    @Test func aJumpDropsTheBlockInProgress() {
        Self.withCache { cache in
            let block = RemoteByteCache.blockSize
            let length = UInt64(block * 4)
            var assembler = CacheBlockAssembler(cache: cache, url: "u", length: length, head: Data())
            let piece = [UInt8](repeating: 7, count: block / 2)
            piece.withUnsafeBytes { assembler.take($0, at: UInt64(block)) }
            // A seek: the rest of block 1 never comes; block 3 is fetched whole from its start.
            let whole = [UInt8](repeating: 9, count: block)
            whole.withUnsafeBytes { assembler.take($0, at: UInt64(block * 3)) }
            #expect(cache.block(url: "u", length: length, index: 1) == nil)
            #expect(cache.block(url: "u", length: length, index: 3) == Data(whole))
        }
    }
}
