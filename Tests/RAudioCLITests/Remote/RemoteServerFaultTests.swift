// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Servers that misbehave in their answers rather than their connections: a `Content-Length` that lies
/// either way, and a body that never ends. Real nginx behind the tests' fault proxy.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
struct RemoteServerFaultTests {
    /// The track's head (from byte 0) and its first read-ahead range (from 65536), each promised longer
    /// and shorter than what is sent.
    @Test(arguments: [(0, 5000), (0, -5000), (65536, 5000), (65536, -5000)])
    func aContentLengthThatLiesIsRetriedAndLosesNothing(rangeStart: Int, difference: Int) throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        proxy.inject(.lieAboutLength(by: difference), pathSuffix: "02-the-ship.ogg", rangeStart: rangeStart)
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(proxy.requests.contains { $0.fault != nil }, "the lie was never told: \(proxy.requests.map { "\($0.path) \($0.range ?? "-")" })")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        // Worked around by asking again from the byte where the answer went wrong; no track is skipped.
        let warnings = RemoteBookFixture.events(result, type: "warning")
        #expect(warnings.allSatisfy { $0["code"]?.stringValue == "remote-retry" }, "\(warnings)")
    }

    @Test func anEndlessResponseWithoutALengthIsSkippedAndTheRestPlays() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        proxy.inject(.endless(contentLength: nil), pathSuffix: "01-the-storm.mp3", times: 1000)
        let (result, _) = try fixture.play(proxy.url("gull-rock/manifest.json"), timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = RemoteBookFixture.events(result, type: "warning")
        #expect(warnings.contains { $0["href"]?.stringValue == "01-the-storm.mp3" && $0["message"]?.stringValue?.contains("Content-Length") == true }, "\(warnings)")
        let tracks = RemoteBookFixture.events(result, type: "track").compactMap { $0["locator"]?.objectValue?["href"]?.stringValue }
        #expect(tracks == ["02-the-ship.ogg", "03-le-matin.mp3"], "\(tracks)")
    }

    @Test func anEndlessResponseKeepsMemoryBounded() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // A terabyte announced, Range ignored: the first track is read as one sequential stream, for ever.
        proxy.inject(.endless(contentLength: 1 << 40), pathSuffix: "01-the-storm.mp3", times: 1000)
        let player = try RunningProcess(ProcessRunner.raudioExecutable, ["play", proxy.url("gull-rock/manifest.json"), "--output", "null", "--cache-size", "0"],
                                        environment: ["XDG_CACHE_HOME": fixture.folder.path("cache"), "RAUDIO_STATE_DIR": fixture.folder.path("state")])
        defer { _ = player.finish(timeout: 5) }
        var samples: [(streamed: Int, rss: Int)] = []
        let deadline = Date().addingTimeInterval(8)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            guard let rss = player.statusKilobytes("VmRSS") else { break }
            samples.append((proxy.endlessBytesSent, rss))
        }
        player.send("quit\n")
        #expect(player.finish(timeout: 10), "raudio did not quit")
        let settled = try #require(samples.first { $0.streamed > 4 << 20 }, "less than 4 MB streamed in 8 s: \(samples.last.map { "\($0)" } ?? "none")")
        let last = try #require(samples.last)
        print("endless: \(last.streamed) bytes streamed; VmRSS \(settled.rss) kB at \(settled.streamed) bytes, \(samples.map(\.rss).max() ?? 0) kB at most, \(last.rss) kB at the end")
        // What streams through after the first 4 MB adds nothing to memory: it passes through the
        // 512 KiB read-ahead ring and is dropped once decoded.
        #expect(last.streamed > settled.streamed + (8 << 20), "only \(last.streamed) bytes streamed")
        #expect((samples.map(\.rss).max() ?? 0) - settled.rss < 8 * 1024, "VmRSS grew from \(settled.rss) kB to \(samples.map(\.rss).max() ?? 0) kB while \(last.streamed - settled.streamed) more bytes streamed")
    }
}
