// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// An utterance plays from its first chunk while eSpeak NG still synthesizes it: the first buffer
/// reaches the output before the first utterance is complete, the output is still exactly the
/// utterances' PCM, and its words, a seek and a failure part-way come out as for whole utterances.
/// Real eSpeak NG, the real synthesizer and renderer, the null output (unpaced) behind a recorder.
@Suite(.serialized) struct UtteranceRenderStreamingTests {
    /// One sentence of about 360 words opening the sample book's first chapter: eSpeak NG takes a few
    /// seconds of CPU to synthesize it (about 2.5 minutes of speech), the rest of the book far less.
    static let longSentence = "The keeper counted the waves breaking on the reef below the lamp"
        + String(repeating: ", and the keeper counted the waves breaking on the reef below the lamp", count: 29) + "."

    /// The sample book (samples/lighthouse-epub) with `longSentence` as its first paragraph.
    static func makeBook(in folder: URL) throws -> Publication {
        let copy = folder.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Corpus.projectRoot.appendingPathComponent("samples/lighthouse-epub"), to: copy)
        let chapter = copy.appendingPathComponent("EPUB/chapter-1.xhtml")
        let text = try String(contentsOf: chapter, encoding: .utf8)
        let heading = try #require(text.range(of: "<h1>"))
        try text.replacingCharacters(in: heading, with: "<p id=\"p0\">\(longSentence)</p>\n    <h1>")
            .write(to: chapter, atomically: true, encoding: .utf8)
        return try PublicationOpener().open(url: copy)
    }

    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The texts the synthesizer plans from `locator` (nil: the start), in order.
    static func plannedTexts(of publication: Publication, from locator: Locator?) throws -> [String] {
        let planner = UtterancePlanner(content: try publication.content(from: locator), tokenizer: ContentTokenizer(),
                                       skippedRoles: SpeechSynthesizerConfiguration().skippedRoles, startLocator: locator, base: 0)
        var texts: [String] = []
        while let utterance = planner.utterance(at: texts.count) { texts.append(utterance.text) }
        return texts
    }

    /// How many `range` events follow each `utterance` event, in order.
    static func rangesPerUtterance(_ events: [SpeechSynthesizerEvent]) -> [Int] {
        var counts: [Int] = []
        for event in events {
            switch event {
            case .utterance: counts.append(0)
            case .range: if !counts.isEmpty { counts[counts.count - 1] += 1 }
            default: break
            }
        }
        return counts
    }

    /// Every announced utterance has exactly the words its synthesis found, and every `range` event
    /// points into the utterance announced before it.
    static func expectWordsMatch(_ recorder: PublicationSpeechSynthesizerTests.Recorder, engine: ObservedSpeechEngine) {
        let events = recorder.events.withLock { $0 }
        let counts = rangesPerUtterance(events)
        for (index, (utterance, _)) in recorder.utterances.enumerated() where index < counts.count {
            let words = engine.wordCount(of: utterance.text)
            #expect(counts[index] == words, "utterance \(index) \"\(utterance.text.prefix(40))\": \(counts[index]) range events, \(words.map { "\($0)" } ?? "no synthesis") words")
        }
        var current: SpeechUtterance?
        for event in events {
            switch event {
            case .utterance(let utterance, _): current = utterance
            case .range(let locator):
                let word = locator.text.highlight ?? ""
                #expect(current.map { $0.locator.href == locator.href && $0.text.contains(word) } == true,
                        "range \"\(word)\" outside the utterance announced before it")
            default: break
            }
        }
    }

    @Test func firstBufferIsHandedToTheOutputBeforeTheFirstUtteranceIsSynthesized() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try Self.makeBook(in: folder)
        let engine = try ObservedSpeechEngine()
        let output = OutputCapture()
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: output.components())
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(120) { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended)

        let firstWrite = try #require(output.firstWrite.withLock { $0 })
        let first = try #require(engine.completions.withLock { $0.first })
        #expect(first.text == Self.longSentence)
        #expect(firstWrite < first.instant,
                "the first buffer was written \(firstWrite - first.instant) after the first utterance's synthesis ended")
        // Its words come with the end of its synthesis: still all reported, in order, with the others'.
        let planned = try Self.plannedTexts(of: publication, from: nil)
        #expect(recorder.utterances.map(\.0.text) == planned)
        Self.expectWordsMatch(recorder, engine: engine)
    }

    @Test func outputIsExactlyTheUtterancesPCMConcatenated() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try Self.makeBook(in: folder)
        let engine = try ObservedSpeechEngine()
        let output = OutputCapture()
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: output.components())
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(120) { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended)

        let completions = engine.completions.withLock { $0 }
        #expect(completions.count == recorder.utterances.count)
        let expected = completions.flatMap(\.samples)
        let rendered = output.samples.withLock { $0 }
        #expect(rendered.count == expected.count, "rendered \(rendered.count) samples, the utterances have \(expected.count)")
        let firstDifference = zip(rendered, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "the output differs from the utterances' PCM at sample \(firstDifference ?? -1)")
    }

    @Test func seekWhileTheFirstUtteranceStreamsCancelsItAndSpeaksTheTargetWithItsWords() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try Self.makeBook(in: folder)
        let engine = try ObservedSpeechEngine()
        let output = OutputCapture()
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: output.components())
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(30) { output.firstWrite.withLock { $0 } != nil }
        try #require(output.firstWrite.withLock { $0 } != nil, "nothing was written")
        try #require(engine.completions.withLock { $0.isEmpty }, "the first utterance was synthesized before the seek: nothing streamed")

        let chapter2 = try #require(publication.readingOrder.last)
        let target = Locator(href: chapter2.href, type: chapter2.type ?? "application/xhtml+xml", locations: .init(progression: 0))
        try await synthesizer.go(to: target)
        await recorder.wait(60) { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended, "states \(recorder.states)")

        // The cancelled utterance never had its words: it is not announced; the target's are, in order.
        let texts = recorder.utterances.map(\.0.text)
        #expect(!texts.contains(Self.longSentence))
        let planned = try Self.plannedTexts(of: publication, from: target)
        #expect(texts == planned, "\(texts)")
        let warnings = recorder.events.withLock { $0 }.compactMap { if case .warning(let issue) = $0 { issue.code } else { nil } }
        #expect(!warnings.contains { $0.rawValue.hasPrefix("tts-") }, "a cancellation is no failure: \(warnings)")
        Self.expectWordsMatch(recorder, engine: engine)
    }

    @Test func synthesisFailingPartWayPlaysWhatArrivedWarnsAndGoesOn() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try Self.makeBook(in: folder)
        let engine = try ObservedSpeechEngine(failing: (Self.longSentence, afterChunks: 20))
        let output = OutputCapture()
        let synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: output.components())
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        await recorder.wait(60) { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended, "states \(recorder.states)")

        let warnings = recorder.events.withLock { $0 }.compactMap { if case .warning(let issue) = $0, issue.code.rawValue.hasPrefix("tts-") { issue } else { nil } }
        #expect(warnings.map(\.code) == [.init(TTSError.Code.synthesisFailed)], "\(warnings.map(\.message))")
        #expect(warnings.first?.locator?.href == publication.readingOrder.first?.href)
        // The failed utterance is skipped (never announced); every other one is spoken with its words.
        let planned = try Self.plannedTexts(of: publication, from: nil)
        #expect(recorder.utterances.map(\.0.text) == Array(planned.dropFirst()))
        Self.expectWordsMatch(recorder, engine: engine)
        // What arrived of it was played, then the others whole.
        let delivered = engine.failedSamples.withLock { $0 }
        let others = engine.completions.withLock { $0 }.reduce(0) { $0 + $1.samples.count }
        #expect(delivered > 0)
        #expect(output.samples.withLock { $0.count } == delivered + others)
    }
}

/// Real eSpeak NG behind a recorder: keeps each utterance's PCM, word count and the instant its
/// synthesis ended (before the synthesizer hears of it), and can make one utterance fail part-way:
/// after `afterChunks` chunks its real synthesis is stopped and it completes with `.synthesisFailed`.
final class ObservedSpeechEngine: TTSEngine {
    struct Completion: Sendable {
        var text: String
        var samples: [Float]
        var words: Int
        var instant: ContinuousClock.Instant
    }

    let engine: ESpeakEngine
    let failing: (text: String, afterChunks: Int)?
    let completions = Locked<[Completion]>([])
    /// Samples delivered of the utterance made to fail.
    let failedSamples = Locked(0)

    init(failing: (text: String, afterChunks: Int)? = nil) throws {
        engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        self.failing = failing
    }

    var availableVoices: [TTSVoice] { engine.availableVoices }
    func voice(withIdentifier identifier: String) -> TTSVoice? { engine.voice(withIdentifier: identifier) }
    func voice(forLanguage language: Language) -> TTSVoiceChoice { engine.voice(forLanguage: language) }

    /// The words synthesis found in the utterance of `text` (its last synthesis), nil when none ended.
    func wordCount(of text: String) -> Int? {
        completions.withLock { completions in completions.last { $0.text == text }?.words }
    }

    func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        guard let failing, utterance.text == failing.text else {
            engine.synthesize(utterance, cancellation: cancellation, onChunk: onChunk) { [completions] result in
                if case .success(let spoken) = result {
                    completions.withLock {
                        $0.append(Completion(text: spoken.text, samples: spoken.samples, words: spoken.wordBoundaries.count,
                                             instant: ContinuousClock.now))
                    }
                }
                completion(result)
            }
            return
        }
        let inner = TTSCancellation()
        let chunks = Locked(0)
        let failedSamples = self.failedSamples
        engine.synthesize(utterance, cancellation: inner, onChunk: { chunk in
            let delivered = chunks.withLock { chunks in
                chunks += 1
                return chunks
            }
            guard delivered <= failing.afterChunks, !cancellation.isCancelled else { return inner.cancel() }
            failedSamples.withLock { $0 += chunk.samples.count }
            onChunk?(chunk)
        }) { _ in
            completion(.failure(TTSError(.synthesisFailed, message: "synthesis stopped after \(failing.afterChunks) chunks (test)")))
        }
    }
}

/// The null output behind a recorder of every sample written and the instant of the first write.
final class OutputCapture: Sendable {
    let samples = Locked<[Float]>([])
    let firstWrite = Locked<ContinuousClock.Instant?>(nil)

    /// The engine's components for the unpaced null output, its sink recorded here.
    func components() -> AudioComponents {
        var components = AudioEngineComponents.make(output: .null)
        components.makeSink = { [self] () throws(AudioSinkError) -> any AudioSink in
            CapturingSink(inner: try AudioEngineComponents.makeSink(.null, realtime: false), capture: self)
        }
        return components
    }
}

/// Forwards to a real sink, recording what is written into an `OutputCapture`. Render thread only.
final class CapturingSink: AudioSink {
    let inner: any AudioSink
    let capture: OutputCapture

    init(inner: any AudioSink, capture: OutputCapture) {
        self.inner = inner
        self.capture = capture
    }

    func open(format: PCMFormat) throws(AudioSinkError) { try inner.open(format: format) }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        capture.firstWrite.withLock { if $0 == nil { $0 = ContinuousClock.now } }
        capture.samples.withLock { $0.append(contentsOf: samples) }
        try inner.write(samples)
    }

    var pendingFrames: Int { inner.pendingFrames }
    func pause() { inner.pause() }
    func resume() { inner.resume() }
    func flush() { inner.flush() }
    func drain() throws(AudioSinkError) { try inner.drain() }
    func close() throws(AudioSinkError) { try inner.close() }
}
