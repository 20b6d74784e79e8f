// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

@Suite(.serialized, .enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
struct PulseAudioSinkTests {
    let format = PCMFormat(sampleRate: 44_100, channelCount: 2)
    let identity = PulseAudioIdentity(title: "Moby Dick", artist: "Herman Melville")

    @Test func toneWrittenToSinkReachesNullSink() throws {
        try withPulseAudioDaemon { daemon in
            let recording = try daemon.record()
            let sink = try PulseAudioSink(identity: identity, server: daemon.server)
            try sink.open(format: format)
            let tone = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 2)
            for start in stride(from: 0, to: tone.count, by: 4096) {
                try tone[start..<min(start + 4096, tone.count)].withUnsafeBufferPointer { try sink.write($0) }
            }
            try sink.drain()
            try sink.close()
            Thread.sleep(forTimeInterval: 0.2)
            let recorded = recording.stop().map { Float($0) / 32768 }
            let left = ToneAnalysis.channel(0, of: recorded, channels: 2)
            let audible = try #require(ToneAnalysis.audibleRange(left), "silence recorded; log: \(daemon.log)")
            let seconds = Double(audible.count) / 44_100
            #expect(seconds > 1.8 && seconds < 2.2, "recorded \(seconds) s of tone")
            let frequency = try #require(ToneAnalysis.dominantFrequency(Array(left[audible]), sampleRate: 44_100))
            #expect(abs(frequency - 440) < 5, "dominant frequency \(frequency) Hz")
        }
    }

    @Test func missingServerIsReportedPromptly() {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try PulseAudioSink(identity: identity, server: "unix:/nonexistent-\(UUID().uuidString)/native.sock")
            Issue.record("expected .serverUnavailable")
        } catch {
            #expect(error.code == .serverUnavailable)
            #expect(error.message.contains("--output wav:"))
        }
        let elapsed = clock.now - start
        print("PulseAudioSink without a server failed after \(elapsed)")
        #expect(elapsed < .seconds(5))
    }

    @Test func serverKilledMidPlayMakesWriteThrowServerLost() throws {
        try withPulseAudioDaemon { daemon in
            let sink = try PulseAudioSink(identity: identity, server: daemon.server)
            try sink.open(format: format)
            let outcome = Locked<AudioSinkError?>(nil)
            let done = DispatchSemaphore(value: 0)
            let tone = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 0.1)
            let writer = Thread {
                defer { done.signal() }
                for _ in 0..<300 {  // 30 s of audio: far longer than the test waits
                    do {
                        try tone.withUnsafeBufferPointer { (buffer) throws(AudioSinkError) in try sink.write(buffer) }
                    } catch {
                        outcome.withLock { $0 = error as? AudioSinkError }
                        return
                    }
                }
            }
            writer.start()
            Thread.sleep(forTimeInterval: 0.5)
            daemon.kill()
            let finished = done.wait(timeout: .now() + 15) == .success
            #expect(finished, "write did not return after the server was killed")
            #expect(outcome.withLock { $0?.code } == .serverLost)
            if finished { try? sink.close() }
        }
    }

    /// A server that stops taking audio while alive (SIGSTOP: the socket stays open) makes a waiting
    /// `write` throw `.serverLost` within about twice `stallTimeout`; a pause longer than that is no
    /// stall, nor are the waits of normal playing that span several firings of the stall timer.
    @Test func serverThatStopsTakingAudioIsLostButALongPauseIsNot() throws {
        try withPulseAudioDaemon { daemon in
            let sink = try PulseAudioSink(identity: identity, server: daemon.server, stallTimeout: .seconds(1))
            try sink.open(format: format)
            let second = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 1)
            // 2.5 s of playing: the writes wait for room across two firings of the stall timer.
            for _ in 0..<3 { try second.withUnsafeBufferPointer { try sink.write($0) } }
            sink.pause()
            Thread.sleep(forTimeInterval: 2.5)
            sink.resume()
            try second.withUnsafeBufferPointer { try sink.write($0) }

            let outcome = Locked<AudioSinkError?>(nil)
            let done = DispatchSemaphore(value: 0)
            let tone = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 0.1)
            let writer = Thread {
                defer { done.signal() }
                for _ in 0..<300 {  // 30 s of audio: far longer than the test waits
                    do {
                        try tone.withUnsafeBufferPointer { (buffer) throws(AudioSinkError) in try sink.write(buffer) }
                    } catch {
                        outcome.withLock { $0 = error as? AudioSinkError }
                        return
                    }
                }
            }
            writer.start()
            Thread.sleep(forTimeInterval: 0.3)
            let pid = try #require(daemon.processID)
            kill(pid, SIGSTOP)
            let started = ContinuousClock.now
            let finished = done.wait(timeout: .now() + 6) == .success
            let waited = ContinuousClock.now - started
            kill(pid, SIGCONT)
            #expect(finished, "write did not return after the server stopped taking audio")
            #expect(waited < .seconds(3), "noticed after \(waited)")
            #expect(outcome.withLock { $0?.code } == .serverLost)
            #expect(outcome.withLock { $0?.message.contains("stopped taking audio") } == true)
            if finished { try? sink.close() }
        }
    }

    @Test func pauseResumeFlushAndPendingFramesWork() throws {
        try withPulseAudioDaemon { daemon in
            let sink = try PulseAudioSink(identity: identity, server: daemon.server)
            try sink.open(format: format)
            let tone = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 0.1)
            sink.pause()
            try tone.withUnsafeBufferPointer { try sink.write($0) }
            Thread.sleep(forTimeInterval: 0.2)
            #expect(sink.pendingFrames > 2_000, "paused stream keeps its buffer")
            sink.flush()
            sink.resume()
            try sink.open(format: PCMFormat(sampleRate: 22_050, channelCount: 1))
            let mono = ToneAnalysis.sine(frequency: 440, sampleRate: 22_050, channels: 1, seconds: 0.3)
            try mono.withUnsafeBufferPointer { try sink.write($0) }
            try sink.drain()
            #expect(sink.pendingFrames < 2_000)
            try sink.close()
        }
    }

    @Test func pausingWhilePlayingKeepsCountingWhatTheServerHolds() throws {
        try withPulseAudioDaemon { daemon in
            let sink = try PulseAudioSink(identity: identity, server: daemon.server)
            try sink.open(format: format)
            // 1 s through a buffer of 0.4 s: write returns with the server's buffer full and playing.
            let tone = ToneAnalysis.sine(frequency: 440, sampleRate: 44_100, channels: 2, seconds: 1)
            try tone.withUnsafeBufferPointer { try sink.write($0) }
            let playing = sink.pendingFrames
            sink.pause()
            Thread.sleep(forTimeInterval: 0.2)
            let paused = sink.pendingFrames
            Thread.sleep(forTimeInterval: 0.2)
            let later = sink.pendingFrames
            #expect(playing > 4_410, "more than 0.1 s buffered while playing, got \(playing) frames")
            // Only what plays during the cork's round trip may go; 0 was the old reading.
            #expect(paused > playing - 4_410, "pausing lost \(playing - paused) of \(playing) pending frames")
            #expect(abs(later - paused) < 441, "the paused position moved from \(paused) to \(later) frames")
            sink.resume()
            try sink.drain()
            #expect(sink.pendingFrames < 2_000)
            try sink.close()
        }
    }
}
