// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// `PiperEngine` handing out each piece of an utterance as the real worker sends it (`onChunk`), and
/// starting an utterance a listener waits for with a short piece.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperStreamingTests {
    /// Long enough for several pieces of at most 70 phonemes: two sentences of Moby-Dick's first chapter.
    static let longText = "Whenever I find myself growing grim about the mouth; whenever it is a damp, drizzly November in my soul; "
        + "whenever I find myself involuntarily pausing before coffin warehouses, and bringing up the rear of every funeral I meet, "
        + "then, I account it high time to get to sea as soon as I can. This is my substitute for pistol and ball."

    /// One synthesis with its chunks and when each came (and when the completion came).
    struct Streamed {
        var spoken: SynthesizedUtterance
        var chunks: [TTSAudioChunk]
        var chunkTimes: [ContinuousClock.Instant]
        var completionTime: ContinuousClock.Instant
    }

    static func stream(_ text: String, on engine: PiperEngine, pitch: Double = 1, cancellation: TTSCancellation = TTSCancellation()) async throws -> Streamed {
        let clock = ContinuousClock()
        let received = Locked<[(TTSAudioChunk, ContinuousClock.Instant)]>([])
        let utterance = TTSUtterance(text: text, voiceOrLanguage: .voice(engine.availableVoices[0]), pitch: pitch)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<SynthesizedUtterance, TTSError>, Never>) in
            engine.synthesize(utterance, cancellation: cancellation, onChunk: { chunk in
                received.withLock { $0.append((chunk, clock.now)) }
            }) { continuation.resume(returning: $0) }
        }
        let completed = clock.now
        let spoken = try result.get()
        let chunks = received.withLock { $0 }
        return Streamed(spoken: spoken, chunks: chunks.map(\.0), chunkTimes: chunks.map(\.1), completionTime: completed)
    }

    /// The chunks laid end to end are the completion's PCM and word boundaries, each word inside its chunk.
    static func expectChunksMakeTheWhole(_ streamed: Streamed, text: String) {
        let spoken = streamed.spoken
        #expect(streamed.chunks.flatMap(\.samples) == spoken.samples, "the chunks laid end to end are the utterance's PCM")
        var frame: Int64 = 0
        for chunk in streamed.chunks {
            #expect(chunk.startFrame == frame, "chunks follow each other without gap or overlap")
            // Without its format a chunk cannot be played before the utterance is complete.
            #expect(chunk.format == spoken.format, "each chunk says the utterance's format")
            for boundary in chunk.wordBoundaries {
                #expect(boundary.startFrame >= chunk.startFrame && boundary.startFrame < chunk.startFrame + Int64(chunk.samples.count),
                        "\"\(text[boundary.range])\" at \(boundary.startFrame) outside its chunk \(chunk.startFrame)+\(chunk.samples.count)")
            }
            frame += Int64(chunk.samples.count)
        }
        let fromChunks = streamed.chunks.flatMap(\.wordBoundaries)
        #expect(fromChunks.map(\.range) == spoken.wordBoundaries.map(\.range))
        #expect(fromChunks.map(\.startFrame) == spoken.wordBoundaries.map(\.startFrame))
        #expect(spoken.wordBoundaries.map(\.range) == TTSWordScanner.words(in: text).map(\.range), "one boundary per word, in order")
    }

    @Test func piecesArriveOneByOneAndLaidEndToEndAreTheUtterance() async throws {
        let engine = try PiperTesting.sharedEngine()
        let streamed = try await Self.stream(Self.longText, on: engine)
        #expect(streamed.chunks.count >= 4, "\(streamed.chunks.count) chunks")
        Self.expectChunksMakeTheWhole(streamed, text: Self.longText)
        // Each piece is its own inference (tens of milliseconds at least): the chunks come apart, not all at the end.
        for (earlier, later) in zip(streamed.chunkTimes, streamed.chunkTimes.dropFirst()) {
            #expect(later - earlier > .milliseconds(10), "chunks \(streamed.chunkTimes)")
        }
        #expect(streamed.completionTime - streamed.chunkTimes[0] > .milliseconds(50))
        // Every word starts inside sound, not in a pause (the pieces' words were placed on their own samples):
        // above 0.06 of the utterance's level (pauses are under a twentieth; unstressed "of" and "to" measured
        // 0.08-0.16 of it: the voice's noise makes each rendering differ, and 0.1 failed twice in a day).
        let samples = streamed.spoken.samples
        let overall = PiperTesting.rms(samples, 0..<samples.count)
        for boundary in streamed.spoken.wordBoundaries {
            let frame = Int(boundary.startFrame)
            #expect(PiperTesting.rms(samples, frame..<frame + 22050 * 12 / 100) > overall * 0.06, "\"\(Self.longText[boundary.range])\" at \(frame): \(PiperTesting.rms(samples, frame..<frame + 22050 * 12 / 100) / overall) of the level")
        }
    }

    @Test func aPitchShiftedUtteranceComesAsOneChunkWithItsWords() async throws {
        let engine = try PiperTesting.sharedEngine()
        let streamed = try await Self.stream(Self.longText, on: engine, pitch: 1.3)
        #expect(streamed.chunks.count == 1)
        Self.expectChunksMakeTheWhole(streamed, text: Self.longText)
    }

    @Test func aFreshVoiceStartsWithAShortPieceAndAgainAfterACancelledUtterance() async throws {
        let file = try PiperTesting.modelFile()
        let runtime = try #require(PiperRuntime.find())
        let engine = try PiperEngine(voice: file, runtime: runtime)
        let text = "The keeper of the lighthouse climbed the long stairs every evening, and he lit the great lamp before the sun went down."
        let rate = Double(engine.format.sampleRate)
        let first = try await Self.stream(text, on: engine)
        Self.expectChunksMakeTheWhole(first, text: text)
        #expect(first.chunks.count >= 3)
        // At most 12 phonemes, a word or a few: well under two seconds of speech, and shorter than the piece after it.
        let firstSeconds = Double(first.chunks[0].samples.count) / rate
        #expect(firstSeconds < 2.0 && first.chunks[0].samples.count < first.chunks[1].samples.count,
                "first pieces \(first.chunks.map { Double($0.samples.count) / rate }) s")
        // The next utterance follows one already synthesized: full pieces.
        let next = try await Self.stream(text, on: engine)
        #expect(Double(next.chunks[0].samples.count) / rate > firstSeconds * 1.5,
                "after a whole utterance: \(next.chunks.map { Double($0.samples.count) / rate }) s")
        // After a cancelled utterance (a seek), the next one is awaited again: a short first piece.
        let cancelled = TTSCancellation()
        cancelled.cancel()
        _ = try? await Self.stream(text, on: engine, cancellation: cancelled)
        let afterSeek = try await Self.stream(text, on: engine)
        #expect(Double(afterSeek.chunks[0].samples.count) / rate < 2.0, "after a cancelled one: \(afterSeek.chunks.map { Double($0.samples.count) / rate }) s")
        Self.expectChunksMakeTheWhole(afterSeek, text: text)
    }
}
