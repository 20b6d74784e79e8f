// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import Testing

/// The worker's ONNX Runtime threads: one inference on two cores by default (`RAUDIO_PIPER_THREADS`
/// overrides), with the real voice and worker.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperThreadsTests {
    static func engine(environment: [String: String]) throws -> PiperEngine {
        try PiperEngine(voice: try PiperTesting.modelFile(), runtime: try #require(PiperRuntime.find()), environment: environment,
                        firstPieceLimit: nil)
    }

    /// The threads of process `pid` (its /proc/PID/task entries).
    static func threadCount(of pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
    }

    @Test func theWorkerRunsOneInferenceOnTwoThreadsAndSpeaksAsWithOne() async throws {
        let text = "Whenever it is a damp, drizzly November in my soul, I account it high time to get to sea as soon as I can."
        // Without the model's noise the same text gives the same samples, whatever the thread count.
        let one = try Self.engine(environment: ["RAUDIO_PIPER_DETERMINISTIC": "1", "RAUDIO_PIPER_THREADS": "1"])
        let byDefault = try Self.engine(environment: ["RAUDIO_PIPER_DETERMINISTIC": "1"])
        let alone = try await one.synthesize(TTSUtterance(text: text, voiceOrLanguage: .voice(one.availableVoices[0])))
        let shared = try await byDefault.synthesize(TTSUtterance(text: text, voiceOrLanguage: .voice(byDefault.availableVoices[0])))
        #expect(!alone.wordBoundaries.isEmpty)
        #expect(alone.wordBoundaries.map(\.range) == shared.wordBoundaries.map(\.range))
        #expect(alone.wordBoundaries.map(\.startFrame) == shared.wordBoundaries.map(\.startFrame))
        #expect(alone.samples.count == shared.samples.count)
        let difference = zip(alone.samples, shared.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-3, "largest difference \(difference)")
        // ONNX Runtime's pool adds a thread to the worker for the second core (none on a one-core machine).
        let extra = ProcessInfo.processInfo.activeProcessorCount >= 2 ? 1 : 0
        #expect(try Self.threadCount(of: byDefault.workerProcessIdentifier) == Self.threadCount(of: one.workerProcessIdentifier) + extra)
    }
}
