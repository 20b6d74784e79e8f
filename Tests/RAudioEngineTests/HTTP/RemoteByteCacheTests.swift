// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// The disk cache of remote bytes: a replay fetches (almost) nothing, and the cache stays within its
/// size, dropping the least recently used blocks first.
@Suite struct RemoteByteCacheTests {
    @Test(.enabled(if: Corpus.isAvailable && NginxServer.isAvailable, "needs the shared corpus and nginx"))
    func replayingATrackReadsItsBytesFromTheCache() throws {
        let path = "audio/ogg-speech/auphonic_chapters_demo.ogg"
        let server = try NginxServer()
        defer { server.stop() }
        let served = try RemoteStreamingTests.serve(path, server: server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let length = try #require(try FileManager.default.attributesOfItem(atPath: try Corpus.file(path).path)[.size] as? Int)
        var first: [Float] = []
        var firstFetched = 0
        for pass in 0..<2 {
            // A new access each time, as a new raudio process would have: only the disk cache is shared.
            let access = RemoteAccess(client: CurlHTTPClient(), cache: RemoteByteCache(folder: folder, capacity: 64 << 20))
            let before = RemoteStreamingTests.bytesSent(server)
            let decoded = DecoderTestSupport.decodeAll(try RAudioDecoderFactory().makeDecoder(for: access.resource(url: server.url(served)), mediaType: nil))
            #expect(decoded.error == nil)
            let fetched = RemoteStreamingTests.bytesSent(server) - before
            if pass == 0 {
                first = decoded.samples
                firstFetched = fetched
                #expect(fetched >= length, "the first pass fetched \(fetched) of \(length) bytes")
            } else {
                #expect(decoded.samples == first)
                // The head (64 KiB, which tells the length) and a few reads outside the read-ahead are fetched again.
                #expect(fetched < length / 8, "the replay fetched \(fetched) bytes (first pass \(firstFetched), file \(length))")
            }
        }
    }

    @Test func theCacheStaysWithinItsSizeDroppingTheLeastRecentlyUsed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let blockSize = RemoteByteCache.blockSize
        let cache = RemoteByteCache(folder: folder, capacity: Int64(blockSize * 3))
        let url = "https://example.org/book/track.mp3"
        let length = UInt64(blockSize * 10)
        for index in 0..<5 {
            cache.store(Data(repeating: UInt8(index), count: blockSize), url: url, length: length, index: UInt64(index))
            Thread.sleep(forTimeInterval: 0.02)
            // Block 0 is read after each write: the most recently used, it must survive.
            #expect(cache.block(url: url, length: length, index: 0) != nil)
        }
        #expect(cache.storedBytes <= Int64(blockSize * 3), "\(cache.storedBytes) bytes stored")
        #expect(cache.block(url: url, length: length, index: 0) == Data(repeating: 0, count: blockSize))
        #expect(cache.block(url: url, length: length, index: 1) == nil)
        #expect(cache.block(url: url, length: length, index: 4) == Data(repeating: 4, count: blockSize))
        // A resource whose length changed is another resource: its blocks are not served.
        #expect(cache.block(url: url, length: length + 1, index: 4) == nil)
    }
}
