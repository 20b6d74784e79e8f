// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// The navigator through a real, private PulseAudio daemon.
@Suite("AudioNavigator plays through PulseAudio")
struct AudioNavigatorPulseAudioTests {
    /// Blocking work (daemon, parec) runs on threads of its own: on 2 cores the cooperative pool has
    /// two threads, and blocking one of them stalls the navigator's actor (the suite runs serialized).
    @Test(.enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
    func threeSecondsOfTheSampleReachTheSink() async throws {
        // Starting and stopping processes blocks: never on the cooperative pool.
        let daemon = try await onOwnThread { try PulseAudioDaemon() }
        let recording: PulseRecording
        do {
            recording = try await onOwnThread { try daemon.record() }
        } catch {
            await onOwnThread { daemon.stop() }
            throw error
        }
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
        let samples = await onOwnThread { recording.stop() }
        await onOwnThread { daemon.stop() }
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

/// Runs blocking `work` on a new thread and returns its result.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
