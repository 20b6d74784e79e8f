// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import raudio_bench
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// `raudio-bench speak-gaps` compares what the synthesizer rendered with the utterances' own PCM. An
/// utterance plays from its first chunk; the benchmark closes the synthesizer when the next chapter
/// is announced, which cancels the synthesis of the utterance playing then. What of it was played
/// must be compared with the chunks it delivered, not counted as added or changed samples (under CPU
/// load the renderer is often part-way into such an utterance when the closing comes).
/// Real eSpeak NG, synthesizer, renderer and null output; the third synthesis is held after its
/// first chunk until the closing cancels it, so the closing always finds it part-played. The benchmark
/// walks what is left once every synthesis ended (`finish()`): a cancelled one is recorded on the
/// engine's thread, which may come after the render thread closed the sink.
@Suite(.serialized) struct SpeechGapComparisonTests {
    @Test func utterancePartPlayedWhenTheClosingCancelsItIsComparedWithItsChunks() async throws {
        let publication = try PublicationOpener().open(url: Corpus.projectRoot.appendingPathComponent("samples/lighthouse-epub"))
        let sinkClosed = Locked(false)
        let held = try HeldSpeechEngine(holding: 2)
        let recorder = RecordingTTSEngine(wrapping: held)
        let written = Locked(0)
        let sinkBox = Locked<GapComparingSink?>(nil)
        var components = AudioEngineComponents.make(output: .null)
        components.makeSink = { () throws(AudioSinkError) -> any AudioSink in
            let sink = GapComparingSink(recorder: recorder)
            sinkBox.withLock { $0 = sink }
            return CountingSink(inner: sink, written: written, closed: sinkClosed)
        }
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: recorder, components: components)
        try await synthesizer.start(from: nil)

        // Everything of the two utterances before it, then its first chunk, has reached the output.
        let deadline = ContinuousClock.now + .seconds(60)
        var expectedBeforeClosing = -1
        while ContinuousClock.now < deadline {
            if let firstChunk = held.heldChunkSamples.withLock({ $0 }), recorder.count == 2 {
                expectedBeforeClosing = (0..<2).reduce(firstChunk) { $0 + (recorder.utterance(at: $1)?.samples.count ?? 0) }
                if written.withLock({ $0 }) >= expectedBeforeClosing { break }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(expectedBeforeClosing > 0 && written.withLock { $0 } >= expectedBeforeClosing,
                     "the held utterance's first chunk was not rendered (\(written.withLock { $0 }) samples written)")
        await synthesizer.close()
        #expect(sinkClosed.withLock { $0 })
        #expect(recorder.waitForAllToEnd(timeout: .seconds(30)), "a synthesis did not end after the closing")
        let sink = try #require(sinkBox.withLock { $0 })
        sink.finish()
        #expect(recorder.failures >= 1, "the held synthesis was not cancelled by the closing")
        #expect(sink.addedSamples == 0, "\(sink.addedSamples) samples counted as added")
        #expect(sink.mismatchedSamples == 0, "\(sink.mismatchedSamples) samples counted as dropped or changed")
        #expect(sink.matchedSamples == sink.renderedSamples)
        let heldChunk = try #require(held.heldChunkSamples.withLock { $0 })
        #expect(sink.cancelledSamplesRendered == heldChunk, "\(sink.cancelledSamplesRendered) rendered samples of the cancelled synthesis, its chunk has \(heldChunk)")
    }
}

/// Real eSpeak NG, except that synthesis number `holding` (0-based, in the order asked) delivers its
/// first chunk and is then held, its thread waiting, until it is cancelled: it then fails as cancelled.
final class HeldSpeechEngine: TTSEngine {
    let engine: ESpeakEngine
    let holding: Int
    private let calls = Locked(0)
    /// The samples of the held synthesis's first chunk, once delivered.
    let heldChunkSamples = Locked<Int?>(nil)

    init(holding: Int) throws {
        engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        self.holding = holding
    }

    var availableVoices: [TTSVoice] { engine.availableVoices }
    func voice(withIdentifier identifier: String) -> TTSVoice? { engine.voice(withIdentifier: identifier) }
    func voice(forLanguage language: Language) -> TTSVoiceChoice { engine.voice(forLanguage: language) }

    func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        let call = calls.withLock { calls in
            defer { calls += 1 }
            return calls
        }
        guard call == holding else {
            return engine.synthesize(utterance, cancellation: cancellation, onChunk: onChunk, completion: completion)
        }
        let heldChunkSamples = self.heldChunkSamples
        engine.synthesize(utterance, cancellation: cancellation, onChunk: { chunk in
            guard heldChunkSamples.withLock({ $0 }) == nil else {
                // Held: eSpeak NG's thread waits here until the closing cancels the synthesis.
                while !cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.001) }
                return
            }
            heldChunkSamples.withLock { $0 = chunk.samples.count }
            onChunk?(chunk)
        }, completion: completion)
    }
}

/// Forwards to a sink, counts the samples written and says when it was closed. Render thread only
/// (the count and the flag are locked).
final class CountingSink: AudioSink {
    let inner: any AudioSink
    let written: Locked<Int>
    let closed: Locked<Bool>

    init(inner: any AudioSink, written: Locked<Int>, closed: Locked<Bool>) {
        self.inner = inner
        self.written = written
        self.closed = closed
    }

    func open(format: PCMFormat) throws(AudioSinkError) { try inner.open(format: format) }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        try inner.write(samples)
        written.withLock { $0 += samples.count }
    }

    var pendingFrames: Int { inner.pendingFrames }
    func pause() { inner.pause() }
    func resume() { inner.resume() }
    func flush() { inner.flush() }
    func drain() throws(AudioSinkError) { try inner.drain() }
    func close() throws(AudioSinkError) {
        try inner.close()
        closed.withLock { $0 = true }
    }
}
