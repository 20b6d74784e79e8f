// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// `PiperEngine` with the real en_US-joe-medium model from PyPI and its real worker process.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable, PiperTesting.skipMessage))
struct PiperEngineTests {
    let engine: PiperEngine
    init() throws { engine = try PiperTesting.sharedEngine() }

    private func speak(_ text: String, rate: Double = 1, pitch: Double = 1) async throws -> SynthesizedUtterance {
        try await engine.synthesize(TTSUtterance(text: text, voiceOrLanguage: .voice(engine.availableVoices[0]), rate: rate, pitch: pitch))
    }

    @Test func everyWordStartsInsideSoundAndNoneInsideTheSilenceBetweenSentences() async throws {
        let text = "The wind rose over the rocks at dusk. Nobody answered. Far below, the keeper lit his lamp and waited for the morning boat."
        let spoken = try await speak(text)
        let words = TTSWordScanner.words(in: text)
        #expect(spoken.format.sampleRate == 22050)
        #expect(spoken.wordBoundaries.map(\.range) == words.map(\.range), "one boundary per word, in order")
        let samples = spoken.samples
        let overall = PiperTesting.rms(samples, 0..<samples.count)
        let window = spoken.format.sampleRate / 20  // 50 ms
        // Silent stretches of 150 ms or more: the pauses the voice makes after "dusk." and "answered.".
        var pauses: [Range<Int>] = []
        var runStart: Int?
        for start in stride(from: 0, to: samples.count - window, by: window / 5) {
            let quiet = PiperTesting.rms(samples, start..<start + window) < overall * 0.05
            if quiet, runStart == nil { runStart = start }
            if !quiet, let begun = runStart {
                if start + window - begun >= spoken.format.sampleRate * 15 / 100 { pauses.append(begun..<start) }
                runStart = nil
            }
        }
        let inner = pauses.filter { $0.lowerBound > window * 4 && $0.upperBound < samples.count - window * 4 }
        #expect(inner.count >= 2, "the voice pauses between the sentences")
        for boundary in spoken.wordBoundaries {
            let frame = Int(boundary.startFrame)
            let word = String(text[boundary.range])
            // The word is heard within 120 ms of its start (plosives and fricatives start quietly).
            let energy = PiperTesting.rms(samples, frame..<frame + spoken.format.sampleRate * 12 / 100)
            #expect(energy > overall * 0.2, "\"\(word)\" at \(frame): \(energy) against \(overall)")
            // Inside the pause, not at its edges: the model's noise makes durations vary from run to run by a few
            // milliseconds, and a pause's end is found to a 10 ms step (the next sentence's start is checked below).
            for pause in inner {
                #expect(!(pause.lowerBound + window..<pause.upperBound - window).contains(frame), "\"\(word)\" starts inside the pause \(pause)")
            }
        }
        // The first word of each later sentence starts right after a pause (within 100 ms of its end):
        // its range is neither early (before the pause) nor late (into the sentence).
        let starts = spoken.wordBoundaries.map { "\(text[$0.range])@\($0.startFrame)" }.joined(separator: " ")
        for sentenceStart in ["Nobody", "Far"] {
            let boundary = try #require(spoken.wordBoundaries.first { text[$0.range] == sentenceStart })
            let frame = Int(boundary.startFrame)
            #expect(inner.contains { abs(frame - $0.upperBound) <= window * 2 }, "\(sentenceStart) at \(frame), pauses \(inner); \(starts)")
        }
    }

    @Test func numbersAndJoinedFunctionWordsKeepEveryWordInOrderAtItsSound() async throws {
        // "1851" is five phoneme groups ("one thousand eight hundred fifty one"), "for the" one: the alignment must still give each word its own start.
        let text = "In 1851 the whale waited for the morning boat."
        let spoken = try await speak(text)
        let words = spoken.wordBoundaries.map { String(text[$0.range]) }
        #expect(words == ["In", "1851", "the", "whale", "waited", "for", "the", "morning", "boat"])
        let frames = Dictionary(spoken.wordBoundaries.map { (String(text[$0.range]) + "@\(text.distance(from: text.startIndex, to: $0.range.lowerBound))", $0.startFrame) },
                                uniquingKeysWith: { first, _ in first })
        let rate = Int64(spoken.format.sampleRate)
        let number = try #require(frames["1851@3"]), after = try #require(frames["the@8"])
        // "eighteen fifty-one" takes most of a second; "the" after it is not placed inside it.
        #expect(after - number > rate / 2, "1851 at \(number), the at \(after)")
        let morning = try #require(frames["morning@33"]), boat = try #require(frames["boat@41"])
        #expect(boat - morning > rate / 5, "morning at \(morning), boat at \(boat)")
        #expect(spoken.wordBoundaries.allSatisfy { PiperTesting.rms(spoken.samples, Int($0.startFrame)..<Int($0.startFrame) + Int(rate) / 8) > 0.01 })
    }

    @Test func speedShortensTheSpeechThroughTheLengthScale() async throws {
        let text = "The lighthouse keeper climbed the stairs every evening of his long life."
        // The model draws its durations with noise (each synthesis differs by up to ~15 %): three of each.
        var normalSeconds = 0.0, fastSeconds = 0.0
        for _ in 0..<3 {
            let normal = try await speak(text)
            let fast = try await speak(text, rate: 2)
            normalSeconds += normal.duration
            fastSeconds += fast.duration
            #expect(fast.wordBoundaries.count == normal.wordBoundaries.count)
        }
        let ratio = fastSeconds / normalSeconds
        #expect(ratio > 0.4 && ratio < 0.65, "at speed 2: \(fastSeconds) s against \(normalSeconds) s (three each)")
    }

    @Test func pitchKeepsTheDurationAndTheWords() async throws {
        let text = "A gull cried over the harbour."
        var normalSeconds = 0.0, highSeconds = 0.0
        for _ in 0..<3 {
            let normal = try await speak(text)
            let high = try await speak(text, pitch: 1.5)
            normalSeconds += normal.duration
            highSeconds += high.duration
            #expect(high.wordBoundaries.map(\.range) == normal.wordBoundaries.map(\.range))
            #expect(high.wordBoundaries.allSatisfy { $0.startFrame < high.frameCount })
        }
        #expect(abs(highSeconds - normalSeconds) < normalSeconds * 0.2, "at pitch 1.5: \(highSeconds) s against \(normalSeconds) s (three each)")
    }

    @Test func textWithoutWordsGivesNoBoundariesAndDoesNotStopTheWorker() async throws {
        _ = try? await speak("…")
        let after = try await speak("Still speaking.")
        #expect(after.wordBoundaries.count == 2)
    }

    @Test func aTruncatedModelIsABadVoiceNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try PiperTesting.modelFile()
        let model = folder.appendingPathComponent("en_US-cut-medium.onnx")
        let handle = try FileHandle(forReadingFrom: good.model)
        try handle.read(upToCount: 1 << 20)!.write(to: model)
        try FileManager.default.copyItem(at: good.config, to: URL(fileURLWithPath: model.path + ".json"))
        let started = Date()
        #expect {
            _ = try PiperEngine.load(named: "en_US-cut-medium", voicePaths: [folder])
        } throws: { error in
            guard let error = error as? PiperError else { return false }
            return error.code == .badVoice && error.message.contains(model.path)
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func aConfigThatIsNotJSONIsABadVoiceNamingTheConfig() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("en_US-broken-medium.onnx")
        try FileManager.default.copyItem(at: try PiperTesting.modelFile().model, to: model)
        try Data("{\"audio\": {\"sample_rate\": 22050".utf8).write(to: URL(fileURLWithPath: model.path + ".json"))
        #expect {
            _ = try PiperEngine.load(named: "en_US-broken-medium", voicePaths: [folder])
        } throws: { error in
            guard let error = error as? PiperError else { return false }
            return error.code == .badVoice && error.message.contains(model.path + ".json")
        }
        let catalog = PiperVoiceCatalog(voicePaths: [folder])
        #expect(catalog.voice(named: "en_US-broken-medium") == nil)
        #expect(catalog.problems.contains { $0.message.contains("en_US-broken-medium.onnx.json") })
    }

    @Test func aConfigPiperCannotReadIsABadVoiceNamingTheConfigWhileTheModelLoads() throws {
        // JSON with a sample rate and a phoneme map (raudio's catalog takes it) but no num_symbols: piper's own
        // reading of it fails in the worker while ONNX Runtime loads the real model on the worker's other
        // thread (the model under its own name, so that the cached patched and optimized copies serve).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try PiperTesting.modelFile()
        let model = folder.appendingPathComponent(good.model.lastPathComponent)
        try FileManager.default.createSymbolicLink(at: model, withDestinationURL: good.model)
        let config = URL(fileURLWithPath: model.path + ".json")
        try Data("{\"audio\": {\"sample_rate\": 22050}, \"phoneme_id_map\": {\"a\": [1]}}".utf8).write(to: config)
        let voice = try PiperVoiceFile(model: model)
        let runtime = try #require(PiperRuntime.find())
        let started = Date()
        #expect {
            _ = try PiperEngine(voice: voice, runtime: runtime)
        } throws: { error in
            guard let error = error as? PiperError else { return false }
            return error.code == .badVoice && error.message.contains(config.path) && error.message.contains("num_symbols")
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func anUnknownVoiceIsReportedAsSuch() {
        #expect {
            _ = try PiperEngine.load(named: "xx_XX-nobody-medium")
        } throws: { ($0 as? PiperError)?.code == .piperUnknownVoice }
    }

    @Test func aWorkerThatDiesFailsTheNextUtteranceWithAClearErrorInsteadOfHanging() async throws {
        let own = try PiperEngine.load(named: PiperTesting.voiceName)
        _ = try await own.synthesize(TTSUtterance(text: "Hello.", voiceOrLanguage: .voice(own.availableVoices[0])))
        kill(own.workerProcessIdentifier, SIGKILL)
        let started = Date()
        await #expect {
            _ = try await own.synthesize(TTSUtterance(text: "Are you there?", voiceOrLanguage: .voice(own.availableVoices[0])))
        } throws: { error in
            guard let error = error as? TTSError else { return false }
            return error.code == .synthesisFailed && error.message.contains("stopped") && error.message.contains("en_US-joe-medium")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func theRouterSpeaksOtherLanguagesWithESpeakNGAndSaysSo() async throws {
        let router = SpeechEngineRouter(neural: engine, fallback: SpeechTesting.engine)
        let english = try await router.synthesize(TTSUtterance(text: "Good morning.", voiceOrLanguage: .language(Language(code: "en-US"))))
        #expect(english.voice.identifier == "piper:en_US-joe-medium")
        #expect(english.warning == nil)
        let french = try await router.synthesize(TTSUtterance(text: "Le bateau est arrivé à l'aube.", voiceOrLanguage: .language(Language(code: "fr"))))
        #expect(french.voice.identifier.hasPrefix("fr"))
        #expect(french.warning?.contains("eSpeak NG") == true)
        #expect(!french.wordBoundaries.isEmpty)
    }
}
