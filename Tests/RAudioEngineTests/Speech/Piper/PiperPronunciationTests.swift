// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// georgia-pls-ssml spoken by Piper: every phoneme span (its lexicon's words, its `ssml:ph`) reaches the model as the
/// ids of the given IPA phonemes, read back from what the worker gave the model (`RAUDIO_PIPER_PHONEME_TRACE`).
/// The whole book's spans are traced without the inference (`RAUDIO_PIPER_PHONEME_TRACE_ONLY`: the ids are those the
/// model would be given, the audio is not made); the other tests run the model.
@Suite(.serialized, .enabled(if: PiperTesting.isAvailable && Corpus.isAvailable, PiperTesting.skipMessage))
final class PiperPronunciationTests {
    let traceFile = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-trace-\(UUID().uuidString).jsonl")
    let runtime: PiperRuntime
    let voice: PiperVoiceFile
    /// The voice's `phoneme_id_map`.
    let idMap: [String: [Int]]

    init() throws {
        runtime = try #require(PiperRuntime.find(), "no Piper environment")
        voice = try #require(PiperVoiceCatalog(voicePaths: [], runtime: runtime).voice(named: PiperTesting.voiceName))
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: voice.config)) as? [String: Any]
        idMap = try #require(config?["phoneme_id_map"] as? [String: [Int]])
    }

    deinit { try? FileManager.default.removeItem(at: traceFile) }

    /// A Piper engine whose worker traces the ids it gives the model; with `traceOnly`, it gives them to no model.
    func makeEngine(traceOnly: Bool = false) throws -> PiperEngine {
        var environment = ["RAUDIO_PIPER_PHONEME_TRACE": traceFile.path, "RAUDIO_PIPER_DETERMINISTIC": "1"]
        if traceOnly { environment["RAUDIO_PIPER_PHONEME_TRACE_ONLY"] = "1" }
        return try PiperEngine(voice: voice, runtime: runtime, environment: environment)
    }

    /// The ids the model was given since the trace was last read, a list per piece, without the padding id.
    func takeTrace() throws -> [[Int]] {
        let pad = Set(idMap["_"] ?? [])
        defer { try? FileManager.default.removeItem(at: traceFile) }
        guard let text = try? String(contentsOf: traceFile, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["ids"] as? [Int] ?? []).filter { !pad.contains($0) }
        }
    }

    /// The ids of `ipa`'s words as the model should get them (each code point of Piper's NFD-decomposed IPA).
    func expectedWords(_ ipa: String) -> [[Int]?] {
        PiperPhonemeSpan.normalized(ipa, languageCode: "en-US").decomposedStringWithCanonicalMapping.split(separator: " ").map { word in
            var ids: [Int] = []
            for scalar in word.unicodeScalars {
                guard let id = idMap[String(scalar)] else { return nil }
                ids += id
            }
            return ids
        }
    }

    static func contains(_ sequence: [Int], in ids: [Int]) -> Bool {
        guard !sequence.isEmpty, sequence.count <= ids.count else { return false }
        return (0...(ids.count - sequence.count)).contains { Array(ids[$0..<($0 + sequence.count)]) == sequence }
    }

    /// Every distinct phoneme string of the book's spans (its lexicon's entries and its `ssml:ph`), in the
    /// utterances that first hold each: the book says "GA" /dʒɔrdʒə/ dozens of times, so each is given to the
    /// model once, with every other span of the same utterances.
    @Test func everySpanReachesTheModelAsItsPhonemes() async throws {
        let engine = try makeEngine(traceOnly: true)
        var distinct = Set<String>()
        let utterances = try ESpeakPronunciationTests.utterances().filter { utterance in
            utterance.phonemes.map(\.phonemes).reduce(false) { distinct.insert($1).inserted || $0 }
        }
        var checked = Set<String>()
        for var utterance in utterances {
            utterance.voiceOrLanguage = .voice(engine.availableVoices[0])
            _ = try takeTrace()
            _ = try await engine.synthesize(utterance)
            let pieces = try takeTrace()
            #expect(!pieces.isEmpty)
            for span in utterance.phonemes {
                for word in expectedWords(span.phonemes) {
                    let ids = try #require(word, "/\(span.phonemes)/ has a symbol the voice does not know")
                    #expect(pieces.contains { Self.contains(ids, in: $0) },
                            "\(utterance.text.utf8Slice(span.range)) /\(span.phonemes)/ not given to the model in \(utterance.text)")
                }
                checked.insert(span.phonemes)
            }
        }
        #expect(checked == distinct)
        #expect(distinct.count > 20, "\(distinct.count) distinct phoneme strings in the book")
    }

    @Test func withoutTheSpanThePhonemizerSaysSomethingElse() async throws {
        let engine = try makeEngine()
        var utterance = TTSUtterance(text: "It is bounded N. by Tennessee.", voiceOrLanguage: .voice(engine.availableVoices[0]))
        let north = try #require(expectedWords("nɔrθ").first ?? nil)
        _ = try takeTrace()
        _ = try await engine.synthesize(utterance)
        #expect(!(try takeTrace()).contains { Self.contains(north, in: $0) })
        utterance.phonemes = [PhonemeSpan(range: 14..<16, phonemes: "nɔrθ")]
        _ = try await engine.synthesize(utterance)
        #expect(try takeTrace().contains { Self.contains(north, in: $0) })
    }

    @Test func wordBoundariesStillPointAtThePagesWords() async throws {
        let engine = try makeEngine()
        let text = "Between 30° 31′ and 35° N., and Macon."
        var utterance = TTSUtterance(text: text, voiceOrLanguage: .voice(engine.availableVoices[0]))
        let given = [("30°", "ˈθɜrti dɪˈgriz"), ("31′", "ˈθɜrtiˈwʌn ˈmɪnɪtz"), ("35°", "ˈθɜrtiˈfaɪv dɪˈgriz"), ("N.", "nɔrθ"), ("Macon", "ˈmeɪkən")]
        utterance.phonemes = try given.map { word, ipa in PhonemeSpan(range: try #require(text.utf8Range(of: word)), phonemes: ipa) }
        let spoken = try await engine.synthesize(utterance)
        #expect(spoken.wordBoundaries.map(\.range) == TTSWordScanner.words(in: text).map(\.range), "one boundary per word of the page's text")
        let frames = spoken.wordBoundaries.map(\.startFrame)
        #expect(frames == frames.sorted())
        #expect(Set(frames).count == frames.count)
    }
}
