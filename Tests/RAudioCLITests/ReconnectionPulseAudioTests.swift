// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio speak` and narrated `raudio play` when the PulseAudio server goes away and comes back:
/// the same reconnection as audiobook playback (`PlayCommandPulseAudioTests`), through the speech
/// synthesizer's and the media overlay navigator's own report handling.
@Suite(.serialized, .enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
struct ReconnectionPulseAudioTests {
    /// Where an utterance locator is in the book: its totalProgression.
    static func totalProgression(_ event: JSONObject) -> Double? {
        event["locator"]?.objectValue?["locations"]?.objectValue?["totalProgression"]?.doubleValue
    }

    /// Starts `arguments`, kills the daemon a second after the first event of type `firstEvent`,
    /// restarts it on the same socket, and returns the events and the loud samples the restarted sink
    /// recorded once raudio has finished (it must exit 0). Shared with `PlayCommandPulseAudioTests`.
    static func runThroughARestart(
        _ daemon: PulseAudioDaemon, _ arguments: [String], after firstEvent: String = "utterance"
    ) throws -> (events: [JSONObject], loud: Int) {
        let running = try RunningProcess(
            ProcessRunner.raudioExecutable, arguments + ["--reconnect-timeout", "20"], environment: ["PULSE_SERVER": daemon.server])
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"\(firstEvent)\"") }, "\(running.standardError)")
        Thread.sleep(forTimeInterval: 1)
        daemon.kill()
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"code\":\"audio-server-lost\"") }, "\(running.standardError)")
        try daemon.restart()
        let recording = try daemon.record()
        let ended = running.finish(timeout: 90)
        Thread.sleep(forTimeInterval: 0.3)
        let samples = recording.stop()
        #expect(ended, "raudio did not finish after the server came back")
        #expect(running.process.terminationReason == .exit && running.process.terminationStatus == 0, "\(running.standardError)")
        return (try running.outputLines.map(PlayCommandTests.object), samples.filter { abs(Int($0)) > 1000 }.count)
    }

    /// Checks the events after the loss: non-fatal error with a locator, loading, playing again, no fatal
    /// error, and the first utterance after the loss no earlier in the book than the lost one.
    func expectResumedWhereLost(_ events: [JSONObject], loud: Int) throws {
        let lostIndex = try #require(events.firstIndex { $0["type"] == "error" })
        let lost = events[lostIndex]
        #expect(lost["fatal"] == false && lost["code"] == "audio-server-lost")
        #expect(lost["locator"]?.objectValue?["href"] != nil, "the loss names no locator")
        let before = events[..<lostIndex].last { $0["type"] == "utterance" }
        let after = events[(lostIndex + 1)...]
        #expect(after.contains { $0["type"] == "state" && $0["state"] == "loading" })
        #expect(after.contains { $0["type"] == "state" && $0["state"] == "playing" })
        #expect(!after.contains { $0["type"] == "error" && $0["fatal"] == true })
        let lostProgression = try #require(before.flatMap(Self.totalProgression))
        let resumed = try #require(after.first { $0["type"] == "utterance" }.flatMap(Self.totalProgression))
        #expect(resumed >= lostProgression - 1e-9, "lost at \(lostProgression), resumed at \(resumed)")
        #expect(loud > 44_100 / 4, "the restarted sink got \(loud) loud samples")
    }

    @Test func speechResumesAfterTheServerIsRestartedOnTheSameSocket() throws {
        try withPulseAudioDaemon { daemon in
            let (events, loud) = try Self.runThroughARestart(daemon, ["speak", SpeakCommandTests.sampleEPUB, "--duration", "6"])
            try expectResumedWhereLost(events, loud: loud)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func narrationResumesAfterTheServerIsRestartedOnTheSameSocket() throws {
        let book = try Corpus.file(NarrationPlayTests.navigation).path
        try withPulseAudioDaemon { daemon in
            let (events, loud) = try Self.runThroughARestart(daemon, ["play", book, "--duration", "6"])
            try expectResumedWhereLost(events, loud: loud)
        }
    }
}
