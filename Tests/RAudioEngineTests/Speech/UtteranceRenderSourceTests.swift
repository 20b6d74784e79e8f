// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// The utterance source's memory rule with real eSpeak NG: utterances behind the one being opened
/// keep their words but not their PCM, and opening one of them again synthesizes it anew.
@Suite(.serialized) struct UtteranceRenderSourceTests {
    static func makeSource() throws -> UtteranceRenderSource {
        let publication = try PublicationOpener().open(url: PublicationSpeechSynthesizerTests.sampleEPUB)
        let engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        let source = UtteranceRenderSource(engine: engine, settings: .init(
            voice: nil, mainLanguage: Language(code: "en"), fallbackLanguage: Language(code: "en"), speed: 1, pitch: 1, lookahead: 2))
        let planner = UtterancePlanner(content: try publication.content(from: nil), tokenizer: ContentTokenizer(),
                                       skippedRoles: [], startLocator: nil, base: 0)
        source.reset(planner: planner)
        return source
    }

    static func frames(of decoder: any AudioDecoder) throws -> Int {
        var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
        var total = 0
        while true {
            let read = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 4096) }
            if read == 0 { return total }
            total += read
        }
    }

    @Test func utterancesBehindKeepTheirWordsButNotTheirPCM() throws {
        let source = try Self.makeSource()
        let first = try Self.frames(of: source.openItem(at: 2))
        #expect(first > 0)
        _ = try source.openItem(at: 3)
        _ = try source.openItem(at: 4)
        let behind = try #require(source.synthesized(at: 2))
        #expect(behind.1.samples.isEmpty, "utterance 2 still holds \(behind.1.samples.count) samples")
        #expect(!behind.1.wordBoundaries.isEmpty, "utterance 2 lost its words")
        // Synthesis runs on the engine's own thread: wait for the lookahead to finish.
        let deadline = Date().addingTimeInterval(10)
        while source.synthesized(at: 5) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let ahead = try #require(source.synthesized(at: 5))
        #expect(!ahead.1.samples.isEmpty, "the lookahead was synthesized without PCM")
    }

    @Test func reopeningAnUtteranceBehindSynthesizesItAgain() throws {
        let source = try Self.makeSource()
        let first = try Self.frames(of: source.openItem(at: 2))
        _ = try source.openItem(at: 3)
        _ = try source.openItem(at: 4)
        let again = try Self.frames(of: source.openItem(at: 2))
        // The same text, voice and settings: the same length within eSpeak's variation between two
        // syntheses in one process (a few tens of ms, LINUX-INTEROP.md); an empty reopening is 0 frames.
        #expect(abs(again - first) <= 22_050 / 20, "first \(first) frames, again \(again)")
    }
}
