// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// `ESpeakWorkerPool` with real `raudio espeak-worker` processes (the built binary), real eSpeak NG,
/// the real synthesizer, renderer and WAV sink.
@Suite(.serialized) struct ESpeakWorkerPoolTests {
    static let presetsFolder = VoicePresets.searchPath(environment: [:]).first {
        $0.lastPathComponent == "voices" && FileManager.default.fileExists(atPath: $0.path)
    }!

    static func makePool(workers: Int, executable: URL = ProcessRunner.raudioExecutable) throws -> ESpeakWorkerPool {
        try ESpeakWorkerPool(presets: VoicePresets.load(folder: presetsFolder).presets, presetsFolder: presetsFolder,
                             workerCount: workers, executable: executable)
    }

    /// Forwards to the pool and keeps each utterance's PCM in the order it was asked for (the
    /// synthesizer's item order); the workers answer on their own threads, in any order.
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

    /// Renders the sample EPUB to a WAV with `engine`; returns the WAV's samples and the recorder.
    static func render(_ engine: any TTSEngine, lookahead: Int) async throws -> ([Int16], PublicationSpeechSynthesizerTests.Recorder) {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-workers-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let publication = try PublicationOpener().open(url: PublicationSpeechSynthesizerTests.sampleEPUB)
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: publication, engine: engine, components: AudioEngineComponents.make(output: .wav(path: wav.path), realtime: false),
            configuration: SpeechSynthesizerConfiguration(lookahead: lookahead))
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(120) { recorder.states.last == .ended }
        await synthesizer.close()
        let data = try Data(contentsOf: wav)
        return (data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }, recorder)
    }

    @Test func aBookRenderedByTwoWorkersIsExactlyTheirPCMEndToEndWithWordsInsideIt() async throws {
        let pool = try Self.makePool(workers: 2)
        defer { pool.close() }
        let engine = Recording(pool)
        let (rendered, recorder) = try await Self.render(engine, lookahead: 4)
        #expect(recorder.states.last == .ended)
        #expect(pool.workerProcessIdentifiers.count == 2)
        let utterances = recorder.utterances
        #expect(utterances.count >= 8)
        // French spans are spoken by the French voice, as the in-process engine does.
        #expect(utterances.contains { $0.0.language?.code == "fr" && $0.1.identifier == "fr" }, "\(utterances.map(\.1.identifier))")

        let spoken = engine.slots.withLock { $0 }
        #expect(spoken.count == utterances.count && spoken.allSatisfy { $0 != nil }, "each utterance synthesized once")
        for case let utterance? in spoken {
            // Words in text order, each starting inside its utterance's PCM.
            #expect(utterance.wordBoundaries.map(\.startFrame) == utterance.wordBoundaries.map(\.startFrame).sorted())
            #expect(utterance.wordBoundaries.map(\.range.lowerBound) == utterance.wordBoundaries.map(\.range.lowerBound).sorted())
            #expect(utterance.wordBoundaries.allSatisfy { $0.startFrame < utterance.frameCount })
            #expect(utterance.wordBoundaries.allSatisfy { !utterance.text[$0.range].contains(" ") && !utterance.text[$0.range].isEmpty })
        }
        // The WAV is the workers' PCM end to end: nothing added between utterances, nothing dropped.
        #expect(spoken.compactMap { $0?.wordBoundaries.count }.reduce(0, +) > 40)
        let expected = spoken.compactMap { $0 }.flatMap(\.samples)
        #expect(rendered.count == expected.count, "rendered \(rendered.count) frames, utterances \(expected.count)")
        var worst: Float = 0
        for (index, sample) in rendered.prefix(expected.count).enumerated() {
            worst = max(worst, abs(Float(sample) / 32768 - expected[index]))
        }
        #expect(worst < 3 / 32768, "largest difference from the utterances' PCM: \(worst)")
    }

    @Test func theSameRenderWithTheSameNumberOfWorkersGivesTheSamePCM() async throws {
        var renders: [[Int16]] = []
        for _ in 0..<2 {
            let pool = try Self.makePool(workers: 2)
            defer { pool.close() }
            renders.append(try await Self.render(pool, lookahead: 4).0)
        }
        #expect(renders[0].count > 22050 * 10)
        #expect(renders[0] == renders[1], "\(renders[0].count) and \(renders[1].count) samples")
    }

    @Test func voicesRateAndLanguageChoiceAreThoseOfTheInProcessEngine() async throws {
        let pool = try Self.makePool(workers: 2)
        defer { pool.close() }
        #expect(pool.availableVoices == SpeechTesting.engine.availableVoices)
        #expect(pool.format == SpeechTesting.engine.format)
        let text = "Le phare était allumé toute la nuit, et personne ne dormait."
        let french = try await pool.synthesize(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "fr"))))
        let local = try SpeechTesting.speak(text, language: "fr")
        #expect(french.voice == local.voice)
        #expect(SpeechTesting.words(of: french) == SpeechTesting.words(of: local))
        // eSpeak NG keeps state between syntheses (what it spoke before in that process), so two renderings of the
        // same text differ by some tens of milliseconds (53 ms seen under ThreadSanitizer in CI); a different rate or
        // voice changes this 3-second sentence by far more than 100 ms.
        #expect(abs(french.frameCount - local.frameCount) < 22050 / 10, "\(french.frameCount) vs \(local.frameCount)")
        let fast = try await pool.synthesize(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "fr")), rate: 2))
        #expect(Double(fast.frameCount) < Double(french.frameCount) * 0.7)
        let unknown = try await pool.synthesize(TTSUtterance(text: "Hello there.", voiceOrLanguage: .language(Language(code: "tlh"))))
        #expect(unknown.warning?.contains("tlh") == true)
        await #expect(throws: TTSError.self) {
            _ = try await pool.synthesize(TTSUtterance(text: "Hello.", voiceOrLanguage: .voice(TTSVoice(identifier: "no-such-voice", name: "x", language: Language(code: "en")))))
        }
    }

    @Test func aKilledWorkerFailsItsUtteranceQuotingHowItEndedAndIsStartedAgain() async throws {
        let pool = try Self.makePool(workers: 1)
        defer { pool.close() }
        let utterance = TTSUtterance(text: "Are you there?", voiceOrLanguage: .language(Language(code: "en")))
        _ = try await pool.synthesize(utterance)
        let victim = try #require(pool.workerProcessIdentifiers.first)
        kill(victim, SIGKILL)
        let started = Date()
        await #expect {
            _ = try await pool.synthesize(utterance)
        } throws: { error in
            guard let error = error as? TTSError else { return false }
            return error.code == .synthesisFailed && error.message.contains("eSpeak NG worker 1") && error.message.contains("signal 9")
        }
        #expect(Date().timeIntervalSince(started) < 5)
        let again = try await pool.synthesize(utterance)
        #expect(again.frameCount > 0)
        let successor = try #require(pool.workerProcessIdentifiers.first)
        #expect(successor != victim)
    }

    @Test func requestsPipelinedBehindAKilledWorkersUtteranceAreSpokenByItsSuccessorInOrder() throws {
        let pool = try Self.makePool(workers: 1)
        defer { pool.close() }
        let texts = (1...6).map { "Sentence number \($0) is spoken in its turn, after the one before it and before the next." }
        let finished = Locked<[(index: Int, result: Result<SynthesizedUtterance, TTSError>)]>([])
        let first = DispatchSemaphore(value: 0), all = DispatchSemaphore(value: 0)
        // All six queued at once: the worker has the next requests in its stdin while it speaks one.
        for (index, text) in texts.enumerated() {
            pool.synthesize(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en"))), cancellation: TTSCancellation(), onChunk: nil) { result in
                finished.withLock { $0.append((index, result)) }
                if index == 0 { first.signal() }
                all.signal()
            }
        }
        #expect(first.wait(timeout: .now() + 30) == .success)
        let victim = try #require(pool.workerProcessIdentifiers.first)
        kill(victim, SIGKILL)
        for _ in texts { #expect(all.wait(timeout: .now() + 60) == .success) }
        let results = finished.withLock { $0 }
        #expect(results.map(\.index) == Array(texts.indices), "completed in the order asked")
        let failures = results.compactMap { entry -> TTSError? in
            if case .failure(let error) = entry.result { return error }
            return nil
        }
        #expect(failures.count == 1, "\(failures.map(\.message))")
        #expect(failures.allSatisfy { $0.code == .synthesisFailed && $0.message.contains("eSpeak NG worker 1") })
        for case (let index, .success(let spoken)) in results {
            #expect(spoken.text == texts[index] && spoken.frameCount > 22050, "\(index): \(spoken.text)")
        }
        #expect(pool.workerProcessIdentifiers.first.map { $0 != victim } == true)
    }

    @Test func aWorkerThatCannotStartFailsEveryUtteranceAtOnce() async throws {
        let pool = try Self.makePool(workers: 2, executable: URL(fileURLWithPath: "/bin/false"))
        defer { pool.close() }
        let started = Date()
        for _ in 0..<3 {
            await #expect {
                _ = try await pool.synthesize(TTSUtterance(text: "Hello.", voiceOrLanguage: .language(Language(code: "en"))))
            } throws: { error in
                guard let error = error as? TTSError else { return false }
                return error.code == .engineUnavailable && error.message.contains("/bin/false") && error.message.contains("exit status 1")
            }
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aCancelledUtteranceIsNotSpoken() async throws {
        let pool = try Self.makePool(workers: 1)
        defer { pool.close() }
        let cancellation = TTSCancellation()
        cancellation.cancel()
        await #expect {
            _ = try await pool.synthesize(TTSUtterance(text: "Never heard.", voiceOrLanguage: .language(Language(code: "en"))), cancellation: cancellation)
        } throws: { error in
            (error as? TTSError)?.code == .cancelled
        }
        let heard = try await pool.synthesize(TTSUtterance(text: "Heard.", voiceOrLanguage: .language(Language(code: "en"))))
        #expect(heard.text == "Heard." && heard.frameCount > 0)
    }
}
