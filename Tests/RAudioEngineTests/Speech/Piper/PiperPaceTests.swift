// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// How the worker's inference threads wait (`PiperInferencePace`) and how a worker is ended, with the real
/// voice, worker and ONNX Runtime.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperPaceTests {
    static let text = "Whenever it is a damp, drizzly November in my soul, I account it high time to get to sea as soon as I can."

    /// The value of `name` in the environment of process `pid`.
    static func environmentValue(_ name: String, of pid: Int32) throws -> String? {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        return data.split(separator: 0).compactMap { String(data: Data($0), encoding: .utf8) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// What the worker's own `session_options` set for ONNX Runtime's spinning, run by the Piper environment's
    /// Python with `environment` (the real worker module and onnxruntime; `RAUDIO_PIPER_SPINNING` unset first).
    static func workerSpinning(environment: [String: String]) throws -> String {
        let runtime = try #require(PiperRuntime.find())
        let script = """
            import sys
            sys.path.insert(0, sys.argv[1])
            import worker, onnxruntime
            options = worker.session_options(onnxruntime, onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL)
            print(options.get_session_config_entry("session.intra_op.allow_spinning"))
            """
        // env unsets first, then sets `environment`, then runs Python.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["-u", PiperInferencePace.environmentVariable] + environment.map { "\($0.key)=\($0.value)" }
                + [runtime.python.path, "-S", "-c", script, runtime.worker.deletingLastPathComponent().path])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func renderingSpinsTheInferenceThreadsLivePlaybackLetsThemSleepAndBothSpeakAlike() async throws {
        let runtime = try #require(PiperRuntime.find())
        let voice = try PiperTesting.modelFile()
        // Without the model's noise the same text gives the same samples.
        let live = try PiperEngine(voice: voice, runtime: runtime, environment: ["RAUDIO_PIPER_DETERMINISTIC": "1"], firstPieceLimit: nil)
        let rendering = try PiperEngine(voice: voice, runtime: runtime, environment: ["RAUDIO_PIPER_DETERMINISTIC": "1"], firstPieceLimit: nil,
                                        pace: .rendering)
        #expect(try Self.environmentValue("RAUDIO_PIPER_SPINNING", of: live.workerProcessIdentifier) == "0")
        #expect(try Self.environmentValue("RAUDIO_PIPER_SPINNING", of: rendering.workerProcessIdentifier) == "1")
        // The worker turns that into ONNX Runtime's session option; spinning is off unless asked for.
        #expect(try Self.workerSpinning(environment: ["RAUDIO_PIPER_SPINNING": "1"]) == "1")
        #expect(try Self.workerSpinning(environment: ["RAUDIO_PIPER_SPINNING": "0"]) == "0")
        #expect(try Self.workerSpinning(environment: [:]) == "0")
        let slept = try await live.synthesize(TTSUtterance(text: Self.text, voiceOrLanguage: .voice(live.availableVoices[0])))
        let spun = try await rendering.synthesize(TTSUtterance(text: Self.text, voiceOrLanguage: .voice(rendering.availableVoices[0])))
        #expect(!slept.wordBoundaries.isEmpty)
        #expect(slept.wordBoundaries.map(\.startFrame) == spun.wordBoundaries.map(\.startFrame))
        #expect(slept.samples.count == spun.samples.count)
        let difference = zip(slept.samples, spun.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-3, "largest difference \(difference)")
    }

    @Test func closingALoadedWorkerEndsItAtOnceNotAfterTheUtteranceItIsSpeaking() throws {
        let runtime = try #require(PiperRuntime.find())
        let worker = try PiperWorker(voice: try PiperTesting.modelFile(), runtime: runtime)
        #expect(try worker.waitUntilReady() > 0)
        // Two sentences in pieces: once the first piece has come, the rest takes the worker well under a second,
        // so a close that waited for the worker to finish would see it exit by itself (status 0).
        let firstPiece = DispatchSemaphore(value: 0)
        let pieces = Locked(0)
        let text = Array(repeating: Self.text, count: 2).joined(separator: " ")
        worker.speak(text, speed: 1, volume: 1, isCancelled: { false }, onMessage: { message in
            guard case .piece = message else { return }
            if pieces.withLock({ count in count += 1; return count }) == 1 { firstPiece.signal() }
        }, completion: { _ in })
        #expect(firstPiece.wait(timeout: .now() + 60) == .success)
        worker.close()
        // Ended by raudio's signal while it was still speaking, not after the utterance nobody would hear
        // (here by SIGKILL: the thread of this test process that starts the worker may block SIGTERM, a mask
        // the worker inherits).
        let ending = try #require(worker.ending)
        #expect(ending.reason == .uncaughtSignal)
        #expect(ending.status == SIGKILL)
    }
}
