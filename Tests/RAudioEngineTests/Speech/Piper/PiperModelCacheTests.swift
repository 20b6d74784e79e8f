// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import Testing

/// The worker's model cache ($XDG_CACHE_HOME/raudio/piper: the model patched for durations and ONNX
/// Runtime's optimized form of it) and its memory settings, with the real voice and worker.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperModelCacheTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func engine(environment: [String: String], firstPieceLimit: Int? = PiperEngine.defaultFirstPieceLimit) throws -> PiperEngine {
        try PiperEngine(voice: try PiperTesting.modelFile(), runtime: try #require(PiperRuntime.find()), environment: environment,
                        firstPieceLimit: firstPieceLimit)
    }

    static func speak(_ text: String, on engine: PiperEngine) async throws -> SynthesizedUtterance {
        try await engine.synthesize(TTSUtterance(text: text, voiceOrLanguage: .voice(engine.availableVoices[0])))
    }

    /// The optimized models in the cache, with their inode, size and modification time.
    static func optimizedModels(in cache: URL) throws -> [(url: URL, inode: Int, size: Int, modified: Date)] {
        let folder = cache.appendingPathComponent("raudio/piper")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.filter { $0.hasSuffix(".ort") }.sorted().map { name -> (url: URL, inode: Int, size: Int, modified: Date) in
            let url = folder.appendingPathComponent(name)
            var status = stat()
            try #require(stat(url.path, &status) == 0, "stat \(url.path)")
            let modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
            return (url, Int(status.st_ino), Int(status.st_size), modified)
        }
    }

    @Test func theOptimizedModelIsMadeOnceReusedAndMadeAgainWhenCorrupt() async throws {
        let cache = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["XDG_CACHE_HOME": cache.path]
        do {
            let engine = try Self.engine(environment: environment)
            #expect(try await Self.speak("The first load.", on: engine).wordBoundaries.count == 3)
        }
        let made = try Self.optimizedModels(in: cache)
        try #require(made.count == 1, "one optimized model in \(cache.path)/raudio/piper")
        #expect(made[0].size > 1_000_000)
        do {
            let engine = try Self.engine(environment: environment)
            #expect(try await Self.speak("The second load.", on: engine).wordBoundaries.count == 3)
        }
        let reused = try Self.optimizedModels(in: cache)
        #expect(reused.map(\.inode) == made.map(\.inode) && reused.map(\.modified) == made.map(\.modified), "the second load reads the same file")
        // Truncated (a full disk, a crash while it was written): the next load makes it again instead of failing.
        let handle = try FileHandle(forWritingTo: made[0].url)
        try handle.truncate(atOffset: UInt64(made[0].size / 3))
        try handle.close()
        do {
            let engine = try Self.engine(environment: environment)
            #expect(try await Self.speak("The third load.", on: engine).wordBoundaries.count == 3)
        }
        let remade = try Self.optimizedModels(in: cache)
        #expect(remade.count == 1 && remade.first?.size == made[0].size, "made again whole: \(remade.map(\.size)) against \(made[0].size)")
        // Garbage in its place: the same.
        try Data(repeating: 0x5A, count: 4096).write(to: made[0].url)
        do {
            let engine = try Self.engine(environment: environment)
            #expect(try await Self.speak("The fourth load.", on: engine).wordBoundaries.count == 3)
        }
        #expect(try Self.optimizedModels(in: cache).first?.size == made[0].size)
    }

    @Test func theCachedOptimizedModelIsMappedNotReadIntoMemory() async throws {
        let cache = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["XDG_CACHE_HOME": cache.path]
        do {
            let engine = try Self.engine(environment: environment)  // the first load makes the optimized model
            _ = try await Self.speak("Made.", on: engine)
        }
        let made = try Self.optimizedModels(in: cache)
        try #require(made.count == 1, "one optimized model in \(cache.path)/raudio/piper")
        let engine = try Self.engine(environment: environment)
        #expect(try await Self.speak("The mapped model speaks.", on: engine).wordBoundaries.count == 4)
        // The worker reads its weights from the file's pages (shared with the page cache), not from a copy.
        let maps = try String(contentsOfFile: "/proc/\(engine.workerProcessIdentifier)/maps", encoding: .utf8)
        #expect(maps.split(separator: "\n").contains { $0.hasSuffix(made[0].url.path) },
                "\(made[0].url.lastPathComponent) among the worker's mappings")
    }

    @Test func theMemorySettingsAndTheOptimizedModelChangeNeitherTheSamplesNorTheWordTiming() async throws {
        // Without the model's noise the same text gives the same samples; compare the settings of before
        // (memory arena, the model optimized at every load) with today's (no arena, the optimized model cached).
        let text = "Whenever it is a damp, drizzly November in my soul, I account it high time to get to sea as soon as I can."
        // The same pieces for every request (no short first piece), so that they can be compared.
        let before = try Self.engine(environment: ["RAUDIO_PIPER_DETERMINISTIC": "1", "RAUDIO_PIPER_CPU_ARENA": "0", "RAUDIO_PIPER_ORT_CACHE": "0"],
                                     firstPieceLimit: nil)
        let now = try Self.engine(environment: ["RAUDIO_PIPER_DETERMINISTIC": "1"], firstPieceLimit: nil)
        let old = try await Self.speak(text, on: before)
        let new = try await Self.speak(text, on: now)
        #expect(old.wordBoundaries.map(\.range) == new.wordBoundaries.map(\.range))
        #expect(old.wordBoundaries.map(\.startFrame) == new.wordBoundaries.map(\.startFrame))
        #expect(old.samples.count == new.samples.count)
        let difference = zip(old.samples, new.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(difference < 1e-3, "largest difference \(difference)")
        // And the noise really is what makes syntheses differ: the same engine twice gives the same again.
        let again = try await Self.speak(text, on: now)
        #expect(again.samples == new.samples)
    }
}
