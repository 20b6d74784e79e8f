// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio speak` through a real, private PulseAudio daemon with a null sink.
@Suite(.serialized, .enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
struct SpeakCommandPulseAudioTests {
    @Test func spokenAudioReachesTheSinkAndWordsAreReported() throws {
        try withPulseAudioDaemon { daemon in
            let recording = try daemon.record()
            let result = try ProcessRunner.raudio(
                ["speak", SpeakCommandTests.sampleEPUB, "--duration", "3"], environment: ["PULSE_SERVER": daemon.server],
                timeout: 60
            )
            Thread.sleep(forTimeInterval: 0.3)
            let samples = recording.stop()
            #expect(result.status == 0, "\(result.standardError)\n\(daemon.log.suffix(2000))")
            let loud = samples.filter { abs(Int($0)) > 1000 }.count
            #expect(Double(loud) / Double(max(samples.count, 1)) > 0.02, "the recording is (nearly) silent")
            let events = try result.outputLines.map(PlayCommandTests.object)
            #expect(events.contains { $0["type"] == "range" })
            #expect(events.last?["type"] == "state" && events.last?["state"] == "stopped")
        }
    }
}
