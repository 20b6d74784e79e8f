// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio play` through a real, private PulseAudio daemon with a null sink.
@Suite(.serialized, .enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
struct PlayCommandPulseAudioTests {
    @Test func playedAudioReachesTheSink() throws {
        try withPulseAudioDaemon { daemon in
            let recording = try daemon.record()
            let result = try ProcessRunner.raudio(
                ["play", PlayCommandTests.sampleBook, "--duration", "4"], environment: ["PULSE_SERVER": daemon.server],
                timeout: 60
            )
            Thread.sleep(forTimeInterval: 0.3)
            let samples = recording.stop()
            #expect(result.status == 0, "\(result.standardError)\n\(daemon.log.suffix(2000))")
            let seconds = Double(samples.count / 2) / 44_100
            // The monitor records from when parec started until it stopped: at least the 4 s played.
            #expect(seconds >= 3.5, "recorded \(seconds) s")
            let loud = samples.filter { abs(Int($0)) > 1000 }.count
            #expect(Double(loud) / Double(max(samples.count, 1)) > 0.05, "the recording is (nearly) silent")
        }
    }

    static func events(_ running: RunningProcess) throws -> [JSONObject] {
        try running.outputLines.map(PlayCommandTests.object)
    }

    @Test func killingTheServerForGoodIsNonFatalFirstThenFatalWithExitCode69() throws {
        try withPulseAudioDaemon { daemon in
            let running = try RunningProcess(
                ProcessRunner.raudioExecutable, ["play", PlayCommandTests.sampleBook, "--reconnect-timeout", "1"],
                environment: ["PULSE_SERVER": daemon.server])
            #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"position\"") }, "\(running.standardError)")
            daemon.kill()
            let ended = running.finish(timeout: 20)
            #expect(ended, "raudio hung after the server went away")
            #expect(running.process.terminationReason == .exit && running.process.terminationStatus == 69, "\(running.standardError)")
            let events = try Self.events(running)
            let errors = events.filter { $0["type"] == "error" }
            // First the loss (non-fatal, with the last locator, state loading), then the fatal give-up.
            let lost = try #require(errors.first)
            #expect(lost["fatal"] == false && lost["code"] == "audio-server-lost")
            #expect(lost["locator"]?.objectValue?["href"] != nil)
            let lostIndex = try #require(events.firstIndex { $0["type"] == "error" })
            #expect(events[lostIndex...].contains { $0["type"] == "state" && $0["state"] == "loading" })
            let fatal = errors.last
            #expect(errors.count >= 2 && fatal?["fatal"] == true)
            #expect(fatal?["locator"]?.objectValue?["href"] != nil)
        }
    }

    @Test func serverRestartedOnTheSameSocketResumesPlaybackAtTheLostLocator() throws {
        try withPulseAudioDaemon { daemon in
            let (events, loud) = try ReconnectionPulseAudioTests.runThroughARestart(
                daemon, ["play", PlayCommandTests.sampleBook, "--duration", "6"], after: "position")
            let lostIndex = try #require(events.firstIndex { $0["type"] == "error" })
            let lost = events[lostIndex]
            #expect(lost["fatal"] == false)
            let after = events[(lostIndex + 1)...]
            #expect(after.contains { $0["type"] == "state" && $0["state"] == "loading" })
            #expect(after.contains { $0["type"] == "state" && $0["state"] == "playing" })
            #expect(!after.contains { $0["type"] == "error" && $0["fatal"] == true })
            // Playback resumes where it was lost: the first position after the loss is at (or just after)
            // the lost locator, not back at the start.
            let lostTime = try #require(lost["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
            let resumed = try #require(after.first { $0["type"] == "position" }?["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
            #expect(resumed >= lostTime - 0.3 && resumed < lostTime + 2, "lost at \(lostTime) s, resumed at \(resumed) s")
            // The restarted server's sink received audio again.
            #expect(loud > 44_100 / 2, "the restarted sink got \(loud) loud samples")
        }
    }
}
