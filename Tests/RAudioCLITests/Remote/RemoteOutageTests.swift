// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A remote book whose server cannot be reached any more: playback stops where the listener is, with a
/// `failed` state and exit 69, and the book is not marked finished (it used to skip every remaining track,
/// end, and be remembered as heard to 100 %). Real nginx; the unreachable server is a closed port.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
struct RemoteOutageTests {
    /// Plays a manifest whose track `unreachable` (0-based) is on a port nothing listens on.
    private func play(unreachable: Int) throws -> (result: ProcessResult, history: [JSONObject], fixture: RemoteBookFixture) {
        let fixture = try RemoteBookFixture()
        let closed = try LoopbackPort.free()
        var hrefs = RemoteBookFixture.tracks.map { fixture.server.url("gull-rock/\($0)") }
        hrefs[unreachable] = "http://127.0.0.1:\(closed)/gull-rock/\(RemoteBookFixture.tracks[unreachable])"
        let manifest = fixture.folder.path("outage.json")
        try RemoteBookFixture.manifest(hrefs: hrefs).write(toFile: manifest, atomically: true, encoding: .utf8)
        let state = fixture.folder.path("state")
        let (result, _) = try fixture.play(manifest, environment: ["RAUDIO_STATE_DIR": state])
        let history = try ProcessRunner.raudio(["history"], environment: ["RAUDIO_STATE_DIR": state])
        return (result, history.outputLines.compactMap { try? JSONParser.parse($0).objectValue }, fixture)
    }

    @Test func anUnreachableLastTrackFailsWithTheBookUnfinished() throws {
        let (result, history, _) = try play(unreachable: 2)
        #expect(result.status == 69, "\(result.standardError)")
        let states = RemoteBookFixture.events(result, type: "state").compactMap { $0["state"]?.stringValue }
        #expect(states.last == "failed" && !states.contains("ended"), "\(states)")
        let errors = RemoteBookFixture.events(result, type: "error")
        #expect(errors.map { $0["code"]?.stringValue } == ["track-unreachable"], "\(errors)")
        #expect(errors.first?["message"]?.stringValue?.contains("03-le-matin.mp3") == true)
        #expect(history.count == 1 && history.first?["finished"] == .bool(false), "\(history)")
        let saved = history.first?["locator"]?.objectValue?["href"]?.stringValue ?? ""
        #expect(saved.hasSuffix("02-the-ship.ogg"), "kept where the listener was: \(saved)")
    }

    @Test func anUnreachableTrackStopsPlaybackInsteadOfSkippingToTheRest() throws {
        let (result, history, _) = try play(unreachable: 1)
        #expect(result.status == 69, "\(result.standardError)")
        let tracks = RemoteBookFixture.events(result, type: "track").compactMap { $0["href"]?.stringValue }
        #expect(!tracks.contains { $0.hasSuffix("03-le-matin.mp3") }, "track 3 was not played past the outage: \(tracks)")
        #expect(RemoteBookFixture.events(result, type: "warning").allSatisfy { $0["code"]?.stringValue == "remote-retry" })
        #expect(history.first?["finished"] == .bool(false))
        let progression = history.first?["progression"]?.doubleValue ?? 1
        #expect(progression < 0.5, "\(progression)")
    }
}
