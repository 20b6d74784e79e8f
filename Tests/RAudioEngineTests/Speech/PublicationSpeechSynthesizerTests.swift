// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// The speech synthesizer with real eSpeak NG, the real renderer and real sinks, on the project's sample EPUB.
@Suite(.serialized) struct PublicationSpeechSynthesizerTests {
    static let sampleEPUB = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")

    /// Records a synthesizer's events.
    final class Recorder: Sendable {
        let events = Locked<[SpeechSynthesizerEvent]>([])
        init(_ synthesizer: PublicationSpeechSynthesizer) {
            let stream = synthesizer.events
            Task { [self] in for await event in stream { events.withLock { $0.append(event) } } }
        }
        var utterances: [(SpeechUtterance, TTSVoice)] {
            events.withLock { $0.compactMap { if case .utterance(let u, let v) = $0 { (u, v) } else { nil } } }
        }
        var ranges: [Locator] { events.withLock { $0.compactMap { if case .range(let l) = $0 { l } else { nil } } } }
        var states: [PlaybackState] { events.withLock { $0.compactMap { if case .stateChanged(let s, _) = $0 { s } else { nil } } } }

        func wait(_ timeout: Double = 30, until condition: () -> Bool) async {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(), Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    static func make(output: OutputDestination, realtime: Bool) throws -> (PublicationSpeechSynthesizer, ESpeakEngine) {
        let publication = try PublicationOpener().open(url: sampleEPUB)
        let engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: publication, engine: engine, components: AudioEngineComponents.make(output: output, realtime: realtime))
        return (synthesizer, engine)
    }

    @Test func wavOfTheBookIsExactlyItsUtterancesPCMWithNoAddedGaps() async throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-speak-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let (synthesizer, engine) = try Self.make(output: .wav(path: wav.path), realtime: false)
        let recorder = Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended)
        var expectedFrames: Int64 = 0
        for (utterance, voice) in recorder.utterances {
            let pcm = try engine.synthesizeBlocking(TTSUtterance(text: utterance.text, voiceOrLanguage: .voice(voice)))
            expectedFrames += pcm.frameCount
        }
        let data = try Data(contentsOf: wav)
        let renderedFrames = Int64((data.count - 44) / 2)
        #expect(recorder.utterances.count >= 8)
        // Same text synthesized twice in one process may differ by a few ms: 20 ms per utterance at most.
        let tolerance = Int64(recorder.utterances.count) * Int64(engine.format.sampleRate) / 50
        #expect(abs(renderedFrames - expectedFrames) <= tolerance, "rendered \(renderedFrames), utterances \(expectedFrames)")
    }

    @Test func pauseAndResumeContinueAtTheWordNotTheStartOfTheUtterance() async throws {
        let (synthesizer, _) = try Self.make(output: .null, realtime: true)
        let recorder = Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        // Wait for the third word of a long utterance (the third utterance, "The wind rose over ...").
        await recorder.wait { recorder.utterances.count >= 3 && recorder.ranges.count >= 7 }
        await synthesizer.pause()
        try await Task.sleep(for: .milliseconds(300))
        let state = await synthesizer.state
        guard case .paused(let utterance) = state else {
            Issue.record("not paused: \(state)")
            return
        }
        let heardBefore = recorder.ranges.count
        let lastWord = try #require(recorder.ranges.last)
        await synthesizer.resume()
        await recorder.wait { recorder.ranges.count > heardBefore }
        await synthesizer.close()
        let next = try #require(recorder.ranges.dropFirst(heardBefore).first)
        #expect(recorder.utterances.count == 3 || recorder.utterances.last?.0 != utterance)
        // The word after the one heard before pausing, in the same utterance: not its first word again.
        #expect(next.locations == lastWord.locations)
        #expect((next.text.before ?? "").count > (lastWord.text.before ?? "").count, "\(lastWord.text) then \(next.text)")
    }

    @Test func nextAndPreviousMoveByOneUtteranceAtOnce() async throws {
        let (synthesizer, _) = try Self.make(output: .null, realtime: true)
        let recorder = Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait { recorder.utterances.count >= 1 && recorder.states.last == .playing }
        await synthesizer.next()
        await recorder.wait { recorder.utterances.count >= 2 }
        await synthesizer.next()
        await recorder.wait { recorder.utterances.count >= 3 }
        await synthesizer.previous()
        await recorder.wait { recorder.utterances.count >= 4 }
        await synthesizer.close()
        let texts = recorder.utterances.map(\.0.text)
        #expect(texts.count >= 4)
        #expect(Array(texts.prefix(4)) == ["Chapter 1.", "The Storm", "The wind rose over the rocks at dusk.", "The Storm"], "\(texts)")
    }
}
