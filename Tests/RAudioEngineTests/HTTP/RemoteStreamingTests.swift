// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// Corpus tracks streamed from a real nginx through `CurlHTTPClient` and `RemoteResource`, decoded by
/// the real decoders (libmpg123, vorbisfile, FFmpeg) with no special case: the same samples as from
/// disk, through dropped connections and exact seeks.
@Suite(.enabled(if: Corpus.isAvailable && NginxServer.isAvailable, "needs the shared corpus and nginx"))
struct RemoteStreamingTests {
    static let files = [
        "audio/mp3-speech/auphonic_chapters_demo.mp3",
        "audio/ogg-speech/auphonic_chapters_demo.ogg",
        "audio/formats/antennapod__auphonic.m4a",
    ]

    /// A server with `path` of the corpus at `/track/<name>`, and the URL to read it through.
    static func serve(_ path: String, server: NginxServer) throws -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        try server.add(try Corpus.file(path), as: "track/\(name)")
        return "track/\(name)"
    }

    static func access(warnings: Locked<[RemoteWarning]> = Locked([])) -> RemoteAccess {
        RemoteAccess(client: CurlHTTPClient(), retryDelays: [0.02, 0.05, 0.1], onWarning: { warning in warnings.withLock { $0.append(warning) } })
    }

    @Test(arguments: files)
    func droppedConnectionsLoseNoSample(path: String) throws {
        let server = try NginxServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let served = try Self.serve(path, server: server)
        // Cut three of the streaming requests after the head, each partway through.
        proxy.inject(.dropAfter(bytes: 30_000), pathSuffix: served, times: 3, skipping: 1)
        let warnings = Locked<[RemoteWarning]>([])
        let remote = Self.access(warnings: warnings).resource(url: proxy.url(served))
        let factory = RAudioDecoderFactory()
        let local = DecoderTestSupport.decodeAll(try factory.makeDecoder(for: try DecoderTestSupport.resource(path), mediaType: nil))
        let streamed = DecoderTestSupport.decodeAll(try factory.makeDecoder(for: remote, mediaType: nil))
        #expect(streamed.error == nil, "\(String(describing: streamed.error))")
        #expect(streamed.format == local.format)
        #expect(streamed.samples == local.samples, "\(streamed.frameCount) frames streamed, \(local.frameCount) from disk")
        let retries = warnings.withLock { $0 }
        #expect(!retries.isEmpty && retries.allSatisfy { $0.code == "remote-retry" && $0.message.contains("from byte") }, "\(retries) \(proxy.requests.map { "\($0.range ?? "-") \($0.fault.map { "\($0)" } ?? "")" })")
    }

    /// A server whose every response breaks after 4 KB, retried after 0.3 s, read 4 KiB at a time as a
    /// decoder reads: each read waited past the threshold and went on with the next few kilobytes, so the
    /// reading thread was told "waiting" then "going on" at nearly every retry (the player's state flipped
    /// between loading and playing). A read that had to wait now waits for 32 KiB more before it returns.
    @Test func aReaderThatWaitedRebuffersBeforeGoingOn() throws {
        let path = Self.files[0]
        let server = try NginxServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let served = try Self.serve(path, server: server)
        proxy.inject(.dropAfter(bytes: 4096), pathSuffix: served, times: 1000, skipping: 1)
        let access = RemoteAccess(client: CurlHTTPClient(), retryDelays: [0.3], onWarning: { _ in })
        let remote = access.resource(url: proxy.url(served))
        let session = try remote.openReadSession()
        let waits = Locked(0)
        ResourceWaitObserver.install { waiting in if waiting { waits.withLock { $0 += 1 } } }
        defer { ResourceWaitObserver.uninstall() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var read = Data()
        let wanted: UInt64 = 160 * 1024
        while UInt64(read.count) < wanted {
            let count = try buffer.withUnsafeMutableBytes { try session.read(into: $0, at: UInt64(read.count)) }
            if count == 0 { break }
            read.append(contentsOf: buffer[..<count])
        }
        let local = try Data(contentsOf: try Corpus.file(path))
        #expect(read == local.prefix(read.count) && UInt64(read.count) == wanted, "\(read.count) bytes read")
        let faults = proxy.requests.filter { $0.fault != nil }.count
        #expect(faults >= 20, "\(faults) broken responses: the fault was not met")
        // 160 KiB in rebuffers of 32 KiB: at most about five waits (and at least the first).
        #expect(waits.withLock { $0 } >= 1 && waits.withLock { $0 } <= 7, "\(waits.withLock { $0 }) waits reported over \(faults) broken responses")
    }

    @Test(arguments: files)
    func seeksOverHTTPAreSampleExact(path: String) throws {
        let server = try NginxServer()
        defer { server.stop() }
        let served = try Self.serve(path, server: server)
        let factory = RAudioDecoderFactory()
        let reference = DecoderTestSupport.decodeAll(try factory.makeDecoder(for: try DecoderTestSupport.resource(path), mediaType: nil))
        try #require(reference.error == nil)
        let decoder = try factory.makeDecoder(for: Self.access().resource(url: server.url(served)), mediaType: nil)
        try assertSeeksAreExact(decoder: decoder, reference: reference, seed: 7)
    }

    @Test func aSeekInAnOggFetchesOnlyAroundItsTarget() throws {
        let path = "audio/ogg-speech/auphonic_chapters_demo.ogg"
        let server = try NginxServer()
        defer { server.stop() }
        let served = try Self.serve(path, server: server)
        let length = try #require(try FileManager.default.attributesOfItem(atPath: try Corpus.file(path).path)[.size] as? Int)
        let decoder = try RAudioDecoderFactory().makeDecoder(for: Self.access().resource(url: server.url(served)), mediaType: nil)
        _ = try DecoderTestSupport.readFrames(decoder, count: 4096)
        // Let the read-ahead fill up, so that what follows counts the seek's requests only.
        Thread.sleep(forTimeInterval: 0.3)
        let before = Self.bytesSent(server)
        let total = try #require(decoder.frameCount)
        try decoder.seek(toFrame: total * 3 / 4)
        _ = try DecoderTestSupport.readFrames(decoder, count: 4096)
        let fetched = Self.bytesSent(server) - before
        // Bisection reads a few pages here and there, not the three quarters skipped.
        #expect(fetched < length / 3, "the seek fetched \(fetched) of \(length) bytes")
    }

    @Test func aSeekCostsOneRangeRequest() throws {
        let path = "audio/mp3-speech/auphonic_chapters_demo.mp3"
        let server = try NginxServer()
        defer { server.stop() }
        let served = try Self.serve(path, server: server)
        let made = try RAudioDecoderFactory().makeDecoder(for: Self.access().resource(url: server.url(served)), mediaType: nil)
        let decoder = try #require(made as? MPG123Decoder)
        // The frame index first (one pass over the file): an MP3 with an exact length header indexes its frames
        // lazily, so a first seek to its end parses every frame header, as the first far seek would.
        decoder.waitForFrameIndex()
        let total = try #require(decoder.frameCount)
        try decoder.seek(toFrame: total - 4096)
        _ = try DecoderTestSupport.readFrames(decoder, count: 4096)
        var requestsPerSeek: [Int] = []
        for fraction in [0.1, 0.8, 0.35, 0.6, 0.05, 0.9, 0.5, 0.25, 0.7, 0.15] {
            // nginx logs a request when its response ends: wait until the log stops growing, so that a
            // response still arriving on a loaded machine is counted with its own seek, not the next.
            let before = Self.settledLogCount(server)
            try decoder.seek(toFrame: Int64(Double(total) * fraction))
            _ = try DecoderTestSupport.readFrames(decoder, count: 4096)
            requestsPerSeek.append(Self.settledLogCount(server) - before)
        }
        // One request where the seek lands serves its first read and goes on as the read-ahead (none when
        // the previous read-ahead holds the target).
        #expect(requestsPerSeek.allSatisfy { $0 <= 2 }, "requests per seek: \(requestsPerSeek)")
        #expect(requestsPerSeek.sorted()[requestsPerSeek.count / 2] == 1, "requests per seek: \(requestsPerSeek)")
    }

    /// The access log's line count once it has not grown for half a second (at most 10 s).
    private static func settledLogCount(_ server: NginxServer) -> Int {
        let deadline = Date().addingTimeInterval(10)
        var count = server.accessLog.count
        var unchangedSince = Date()
        while Date().timeIntervalSince(unchangedSince) < 0.5, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let now = server.accessLog.count
            if now != count { count = now; unchangedSince = Date() }
        }
        return count
    }

    @Test func aServerThatRestartsMidTrackIsWaitedFor() throws {
        let path = "audio/mp3-speech/auphonic_chapters_demo.mp3"
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try NginxServer(documentRoot: root)
        let served = try Self.serve(path, server: server)
        let warnings = Locked<[RemoteWarning]>([])
        var access = Self.access(warnings: warnings)
        access.retryDelays = [0.1, 0.2, 0.4, 0.8, 1.6]
        access.readAheadBytes = 64 * 1024
        let factory = RAudioDecoderFactory()
        let local = DecoderTestSupport.decodeAll(try factory.makeDecoder(for: try DecoderTestSupport.resource(path), mediaType: nil))
        let decoder = try factory.makeDecoder(for: access.resource(url: server.url(served)), mediaType: nil)
        var streamed = try DecoderTestSupport.readFrames(decoder, count: 100_000)
        // The server goes away mid-track and comes back on the same port half a second later.
        server.stop()
        let restarted = Locked<NginxServer?>(nil)
        let port = server.port
        let restart = Thread {
            Thread.sleep(forTimeInterval: 0.5)
            let again = try? NginxServer(port: port, documentRoot: root)
            restarted.withLock { $0 = again }
        }
        restart.start()
        defer { restarted.withLock { $0?.stop() } }
        let rest = DecoderTestSupport.decodeAll(decoder)
        #expect(rest.error == nil, "\(String(describing: rest.error))")
        streamed += rest.samples
        #expect(streamed == local.samples, "\(streamed.count) samples streamed, \(local.samples.count) from disk")
        #expect(warnings.withLock { $0 }.contains { $0.message.contains("cannot connect") }, "\(warnings.withLock { $0 })")
    }

    /// Body bytes nginx sent so far, from its access log.
    static func bytesSent(_ server: NginxServer) -> Int {
        server.accessLog.compactMap { line in line.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } }.reduce(0, +)
    }
}
