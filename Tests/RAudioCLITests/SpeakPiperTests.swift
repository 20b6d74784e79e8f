// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// End-to-end tests of `raudio speak` and `raudio voices` with the neural Piper voice from PyPI (the
/// .venv-piper that `make deps` makes), its real worker, and eSpeak NG for the French spans.
@Suite(.serialized, .enabled(if: PiperEnvironment.isAvailable, "no Piper environment (.venv-piper): run make deps"))
struct SpeakPiperTests {
    /// One cache for the runs of this suite: the model patched for phoneme durations is made once.
    static let cache = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-piper-cache")

    static func run(_ arguments: [String]) throws -> (ProcessResult, [JSONObject]) {
        let result = try ProcessRunner.raudio(arguments, environment: ["XDG_CACHE_HOME": cache.path], timeout: 180)
        let events = arguments.first == "speak" && result.status == 0 ? try result.outputLines.map(PlayCommandTests.object) : []
        return (result, events)
    }

    @Test func voicesListsThePiperVoiceWithItsEngineAndQuality() throws {
        let (result, _) = try Self.run(["voices", "--language", "en"])
        #expect(result.status == 0, "\(result.standardError)")
        let voices = try result.outputLines.map(PlayCommandTests.object)
        let piper = try #require(voices.first { $0["identifier"] == "piper:en_US-joe-medium" }, "\(result.standardOutput)")
        #expect(piper["engine"] == "piper" && piper["quality"] == "medium" && piper["language"] == "en-US")
        #expect(voices.contains { $0["engine"] == "espeak" })
    }

    @Test func theBookIsSpokenWithThePiperVoiceWordByWordAndFrenchFallsBackToESpeakNG() throws {
        let (result, events) = try Self.run(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--voice", "piper:en_US-joe-medium"])
        #expect(result.status == 0, "\(result.standardError)")
        let utterances = SpeakCommandTests.utterances(events)
        #expect(utterances.count >= 8)
        for utterance in utterances {
            let french = utterance["language"]?.stringValue?.hasPrefix("fr") == true
            #expect(utterance["engine"] == (french ? "espeak" : "piper"), "\(utterance)")
            #expect((utterance["voice"]?.stringValue?.hasPrefix("piper:") == true) == !french)
        }
        #expect(utterances.contains { $0["language"] == "fr" })
        #expect(events.contains { $0["type"] == "warning" && $0["code"] == "voice-fallback" })
        // Every word of each English utterance is reported, in order, inside its utterance.
        var expectedWords: [String] = []
        var reported: [String] = []
        var currentIsPiper = false
        for event in events {
            if event["type"] == "utterance" {
                currentIsPiper = event["engine"] == "piper"
                if currentIsPiper, let text = event["text"]?.stringValue {
                    expectedWords += TTSWordScannerWords.of(text)
                }
            } else if event["type"] == "range", currentIsPiper,
                      case .object(let locator)? = event["locator"], case .object(let text)? = locator["text"],
                      let word = text["highlight"]?.stringValue {
                reported.append(word)
            }
        }
        #expect(reported == expectedWords)
        #expect(events.last?["type"] == "state" && events.last?["state"] == "ended")
        if EventSchemaValidator.isAvailable { try EventSchemaValidator.validate(result.outputLines) }
    }

    @Test func engineOptionPiperPicksTheNeuralVoiceForTheBooksLanguage() throws {
        let (result, events) = try Self.run(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--engine", "piper", "--duration", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(SpeakCommandTests.utterances(events).first?["voice"] == "piper:en_US-joe-medium")
    }

    @Test func engineOptionPiperPrefersThePresetsNeuralVoiceToAnotherOfTheLanguage() throws {
        // Another en_US voice in a --voice-path folder comes first in the catalog; the en-US preset names joe.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-other-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sitePackages = Corpus.projectRoot.appendingPathComponent(".venv-piper/lib")
        let relative = try #require(FileManager.default.enumerator(atPath: sitePackages.path)?.compactMap { $0 as? String }
            .first { $0.hasSuffix("en_US-joe-medium.onnx") })
        let model = sitePackages.appendingPathComponent(relative)
        let other = folder.appendingPathComponent("en_US-aaa-medium.onnx")
        try FileManager.default.createSymbolicLink(at: other, withDestinationURL: model)
        try FileManager.default.copyItem(atPath: model.path + ".json", toPath: other.path + ".json")
        let (result, events) = try Self.run(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--engine", "piper",
                                              "--voice-path", folder.path, "--duration", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(SpeakCommandTests.utterances(events).first?["voice"] == "piper:en_US-joe-medium")
    }

    @Test func anUnknownPiperVoiceExits64NamingIt() throws {
        let (result, _) = try Self.run(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--voice", "piper:en_US-nobody-medium"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("piper:en_US-nobody-medium") && result.standardError.contains("en_US-joe-medium"), "\(result.standardError)")
    }

    @Test func aTruncatedModelExits65NamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-piper-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (list, _) = try Self.run(["voices", "--language", "en"])
        let sitePackages = Corpus.projectRoot.appendingPathComponent(".venv-piper/lib")
        let relative = try #require(FileManager.default.enumerator(atPath: sitePackages.path)?.compactMap { $0 as? String }
            .first { $0.hasSuffix("en_US-joe-medium.onnx") })
        let model = sitePackages.appendingPathComponent(relative)
        #expect(list.status == 0)
        let cut = folder.appendingPathComponent("en_US-cut-medium.onnx")
        try FileHandle(forReadingFrom: model).read(upToCount: 1 << 20)!.write(to: cut)
        try FileManager.default.copyItem(atPath: model.path + ".json", toPath: cut.path + ".json")
        let (result, _) = try Self.run(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--voice-path", folder.path, "--voice", "piper:en_US-cut-medium"])
        #expect(result.status == 65)
        #expect(result.standardError.contains(cut.path), "\(result.standardError)")
    }
}

/// Whether the Piper environment `make deps` makes is there; in CI it must be (the tests then fail).
enum PiperEnvironment {
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: Corpus.projectRoot.appendingPathComponent(".venv-piper/bin/python").path) || Corpus.isCI
    }
}

/// The words `raudio speak` reports for a text, found as the engine finds them (letters, digits, inner apostrophes).
enum TTSWordScannerWords {
    static func of(_ text: String) -> [String] {
        TTSWordScanner.words(in: text).map { String(text[$0.range]) }
    }
}
