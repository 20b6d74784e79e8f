// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// The speech synthesizer speaking the sample EPUB with the real Piper voice (eSpeak NG for its French
/// spans), the real renderer and a real WAV sink.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperSynthesizerTests {
    /// Forwards to a real engine and keeps each utterance's PCM in the order it was asked for (the
    /// synthesizer's item order): Piper and eSpeak NG answer on different threads.
    final class Recording: TTSEngine {
        let engine: any TTSEngine
        let slots = Locked<[SynthesizedUtterance?]>([])
        init(_ engine: any TTSEngine) { self.engine = engine }
        var availableVoices: [TTSVoice] { engine.availableVoices }
        func voice(withIdentifier identifier: String) -> TTSVoice? { engine.voice(withIdentifier: identifier) }
        func voice(forLanguage language: Language) -> TTSVoiceChoice { engine.voice(forLanguage: language) }
        func synthesize(_ utterance: TTSUtterance, cancellation: TTSCancellation, onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
                        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void) {
            let slot = slots.withLock { $0.append(nil); return $0.count - 1 }
            engine.synthesize(utterance, cancellation: cancellation, onChunk: onChunk) { [slots] result in
                if case .success(let spoken) = result { slots.withLock { $0[slot] = spoken } }
                completion(result)
            }
        }
    }

    @Test func theBookIsSpokenToItsEndWithNoAddedGapsAndFrenchSpansFallBackToESpeakNG() async throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let publication = try PublicationOpener().open(url: PublicationSpeechSynthesizerTests.sampleEPUB)
        let piper = try PiperTesting.sharedEngine()
        let engine = Recording(SpeechEngineRouter(neural: piper, fallback: SpeechTesting.engine))
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: publication, engine: engine, components: AudioEngineComponents.make(output: .wav(path: wav.path), realtime: false),
            configuration: SpeechSynthesizerConfiguration(voiceIdentifier: piper.availableVoices[0].identifier))
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(120) { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended)

        let utterances = recorder.utterances
        #expect(utterances.count >= 8)
        let voices = utterances.map { ($0.0.language?.code ?? "en", $0.1.identifier) }
        #expect(voices.filter { $0.0.hasPrefix("fr") }.allSatisfy { !$0.1.hasPrefix("piper:") }, "French spans speak with eSpeak NG: \(voices)")
        #expect(voices.contains { $0.0.hasPrefix("fr") }, "the sample has French spans")
        #expect(voices.filter { !$0.0.hasPrefix("fr") }.allSatisfy { $0.1 == "piper:en_US-joe-medium" }, "\(voices)")
        #expect(recorder.ranges.count > 40, "words are reported as heard")

        // The WAV is the utterances' own PCM end to end: nothing added between them, nothing dropped.
        let spoken = engine.slots.withLock { $0 }
        #expect(spoken.count == utterances.count && spoken.allSatisfy { $0 != nil }, "each utterance synthesized once")
        let expected = spoken.compactMap { $0 }.flatMap(\.samples)
        let data = try Data(contentsOf: wav)
        let rendered = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(rendered.count == expected.count, "rendered \(rendered.count) frames, utterances \(expected.count)")
        var worst: Float = 0
        for (index, sample) in rendered.prefix(expected.count).enumerated() {
            worst = max(worst, abs(Float(sample) / 32768 - expected[index]))
        }
        #expect(worst < 3 / 32768, "largest difference from the utterances' PCM: \(worst)")
    }
}
