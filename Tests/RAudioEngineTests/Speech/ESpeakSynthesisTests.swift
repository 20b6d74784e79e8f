// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Synchronization
import Testing

/// Synthesis and word boundaries with the real eSpeak NG.
struct ESpeakSynthesisTests {
    let engine = SpeechTesting.engine

    @Test(arguments: [("The quick brown fox jumps over the lazy dog.", "en"), ("Le petit chat dort sur le canapé.", "fr")])
    func sentenceProducesNonSilentMonoPCMAt22050Hz(text: String, language: String) throws {
        let utterance = try SpeechTesting.speak(text, language: language)
        #expect(utterance.format == PCMFormat(sampleRate: 22050, channelCount: 1))
        #expect(utterance.duration > 1)
        #expect(utterance.samples.contains { abs($0) > 0.05 })
        #expect(utterance.samples.allSatisfy { abs($0) <= 1 })
    }

    @Test(arguments: [
        ("Hello world, this is a test.", "en", ["Hello", "world", "this", "is", "a", "test"]),
        ("L'école est à côté de l'église.", "fr", ["L'école", "est", "à", "côté", "de", "l'église"]),
        ("Il n'y a qu'un garçon aujourd'hui.", "fr", ["Il", "n'y", "a", "qu'un", "garçon", "aujourd'hui"]),
        ("I have 1,234 apples and 3.5 pears.", "en", ["I", "have", "1,234", "apples", "and", "3.5", "pears"]),
        ("Look 😀 here, now.", "en", ["Look", "here", "now"]),
        ("漢字 です", "ja", ["漢字", "です"]),
        ("Use <b> & \"quotes\" well.", "en", ["Use", "b", "quotes", "well"]),
    ])
    func wordBoundariesCoverWholeWords(text: String, language: String, expected: [String]) throws {
        let utterance = try SpeechTesting.speak(text, language: language)
        let words = SpeechTesting.words(of: utterance)
        let allWords = TTSWordScanner.words(in: text).map { String(text[$0.range]) }
        #expect(allWords == expected)
        // eSpeak may skip a word's event; every boundary is still one of the text's whole words, in order.
        #expect(words.allSatisfy { expected.contains($0) })
        #expect(words.count >= expected.count - 1, "\(words)")
        #expect(words.first == expected.first)
    }

    @Test(arguments: [
        ("L'école est à côté de l'église.", "fr"), ("One, two, three: 42 and 1,000,000.", "en"),
        ("漢字です。日本語の文章。", "ja"), ("Smile 😀 🎉 done.", "en"), ("مرحبا بالعالم", "ar"),
    ])
    func boundariesAreMonotonicAndInsideThePCM(text: String, language: String) throws {
        let utterance = try SpeechTesting.speak(text, language: language)
        #expect(!utterance.wordBoundaries.isEmpty)
        for (previous, next) in zip(utterance.wordBoundaries, utterance.wordBoundaries.dropFirst()) {
            #expect(previous.startFrame <= next.startFrame)
            #expect(previous.range.upperBound <= next.range.lowerBound)
        }
        #expect(utterance.wordBoundaries.allSatisfy { $0.startFrame >= 0 && $0.startFrame < utterance.frameCount })
    }

    @Test func laterWordsStartLaterInTheAudio() throws {
        let utterance = try SpeechTesting.speak("First second third fourth fifth.", language: "en")
        #expect(SpeechTesting.words(of: utterance) == ["First", "second", "third", "fourth", "fifth"])
        let frames = utterance.wordBoundaries.map(\.startFrame)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 })
        // "fifth" starts in the last half of the audio.
        #expect(frames.last! > utterance.frameCount / 2)
    }

    @Test func fasterRateShortensTheAudio() throws {
        let text = "A longer sentence that takes a few seconds to say at the normal pace of an audiobook."
        let normal = try SpeechTesting.speak(text, language: "en")
        let fast = try SpeechTesting.speak(text, language: "en", rate: 1.5)
        #expect(Double(fast.frameCount) < Double(normal.frameCount) * 0.85)
    }

    @Test func sameTextTwiceHasAboutTheSameLength() throws {
        let text = "The same sentence, spoken twice in one process."
        let first = try SpeechTesting.speak(text, language: "en")
        let second = try SpeechTesting.speak(text, language: "en")
        #expect(abs(Double(first.frameCount - second.frameCount)) < Double(first.frameCount) * 0.05)
    }

    @Test func volumeScalesTheSamples() throws {
        let text = "Volume check."
        let loud = try engine.synthesizeBlocking(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en"))))
        let quiet = try engine.synthesizeBlocking(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en")), volume: 0.5))
        let loudPeak = loud.samples.map(abs).max() ?? 0
        let quietPeak = quiet.samples.map(abs).max() ?? 0
        #expect(abs(quietPeak - loudPeak / 2) < loudPeak * 0.1)
    }

    @Test func cancellingFromAChunkStopsSynthesisWithinABuffer() async throws {
        let text = String(repeating: "This sentence is long enough to take a while. ", count: 200)
        let cancellation = TTSCancellation()
        let chunks = Atomic<Int>(0)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<SynthesizedUtterance, TTSError>, Never>) in
            engine.synthesize(
                TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en"))), cancellation: cancellation,
                onChunk: { _ in
                    if chunks.add(1, ordering: .relaxed).newValue == 3 { cancellation.cancel() }
                },
                completion: { continuation.resume(returning: $0) }
            )
        }
        #expect(throws: TTSError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .cancelled) }
        #expect(chunks.load(ordering: .relaxed) <= 4)
    }

    @Test func cancelledTaskThrowsCancelled() async throws {
        let text = String(repeating: "Many words to speak here. ", count: 400)
        let task = Task { try await engine.synthesize(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: "en")))) }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled task finished synthesizing")
        } catch let error as TTSError {
            #expect(error.code == .cancelled)
        }
    }

    @Test func chunksAddUpToTheUtterance() async throws {
        let collected = Locked<(samples: [Float], words: Int)>(([], 0))
        let utterance = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SynthesizedUtterance, any Error>) in
            engine.synthesize(
                TTSUtterance(text: "Chunks, then the whole utterance.", voiceOrLanguage: .language(Language(code: "en"))),
                cancellation: TTSCancellation(),
                onChunk: { [format = engine.format] chunk in
                    // The format comes with every chunk: a consumer plays it before the utterance is complete.
                    #expect(chunk.format == format)
                    collected.withLock {
                        #expect(Int64($0.samples.count) == chunk.startFrame)
                        $0.samples += chunk.samples
                        $0.words += chunk.wordBoundaries.count
                    }
                },
                completion: { continuation.resume(with: $0.mapError { $0 as any Error }) }
            )
        }
        collected.withLock {
            #expect($0.samples == utterance.samples)
            #expect($0.words <= utterance.wordBoundaries.count)
            #expect($0.words >= utterance.wordBoundaries.count - 1)
        }
    }

    @Test func concurrentRequestsFromManyTasksAreSerializedSafely() async throws {
        let texts = (0..<24).map { "Request number \($0) from many tasks." }
        let reference = try SpeechTesting.speak(texts[0], language: "en")
        let results = try await withThrowingTaskGroup(of: (Int, SynthesizedUtterance).self) { group in
            for (index, text) in texts.enumerated() {
                let language = index.isMultiple(of: 2) ? "en" : "fr"
                group.addTask { (index, try await engine.synthesize(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: language))))) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == texts.count)
        for (index, utterance) in results {
            #expect(utterance.text == texts[index])
            #expect(utterance.voice.identifier == (index.isMultiple(of: 2) ? "en-us" : "fr"))
            #expect(utterance.frameCount > 22050 / 2)
        }
        #expect(abs(Double(results[0]!.frameCount - reference.frameCount)) < Double(reference.frameCount) * 0.05)
        #expect(ESpeakEngine.initializationCount == 1)
    }

    @Test func fallbackLanguageUtteranceCarriesTheWarning() throws {
        let utterance = try SpeechTesting.speak("Namaste.", language: "sa")
        #expect(utterance.voice.identifier == engine.presets.defaultPreset.voice)
        #expect(utterance.warning?.contains("sa") == true)
        #expect(utterance.frameCount > 0)
    }

    @Test func utterancePlaysThroughADecoder() throws {
        let utterance = try SpeechTesting.speak("Decoded back.", language: "en")
        let decoder = utterance.makeDecoder()
        var buffer = [Float](repeating: 0, count: 1000)
        var read: [Float] = []
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 1000) }
            if frames == 0 { break }
            read += buffer[0..<frames]
        }
        #expect(read == utterance.samples)
    }
}
