import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// The navigator through a real, private PulseAudio daemon.
@Suite("AudioNavigator plays through PulseAudio")
struct AudioNavigatorPulseAudioTests {
    @Test(.enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
    func threeSecondsOfTheSampleReachTheSink() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recording = try daemon.record()
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        var configuration = AudioNavigatorConfiguration()
        configuration.stopAfter = 3
        let navigator = try AudioNavigator(
            publication: publication,
            components: AudioEngineComponents.make(output: .pulse(server: daemon.server, title: publication.title)),
            configuration: configuration)
        let events = EventRecorder(navigator)
        await navigator.play()
        try await events.wait(timeout: 30, until: { all in
            all.contains { if case .stateChanged(let s, _) = $0 { s == .stopped || s == .failed } else { false } }
        })
        await navigator.close()
        try await Task.sleep(for: .milliseconds(300))
        let samples = recording.stop()
        #expect(events.states.last == .stopped, "\(events.errors.map(\.message)) \(daemon.log)")
        // Frames that carry sound: the speech of 3 s, at 44.1 kHz stereo after the server's conversion.
        let frames = samples.count / 2
        var loud = 0
        var first = -1, last = -1
        for frame in 0..<frames where abs(Int(samples[frame * 2])) > 300 {
            loud += 1
            if first < 0 { first = frame }
            last = frame
        }
        #expect(loud > 44_100 / 4, "only \(loud) non-silent frames of \(frames)")
        let heard = Double(last - first) / 44_100
        #expect(heard > 2.0 && heard < 3.5, "sound spans \(heard) s")
        let positions = events.all.filter { if case .position = $0 { true } else { false } }
        #expect(positions.count >= 3)
    }
}
