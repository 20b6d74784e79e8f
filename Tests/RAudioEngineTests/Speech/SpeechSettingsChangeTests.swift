// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// A change of speed, pitch or voice in the middle of an utterance, with real eSpeak NG: speech goes on
/// from the word being heard, with the new settings, and words still locate against the whole utterance.
@Suite(.serialized) struct SpeechSettingsChangeTests {
    static let longUtterance = "Ada climbed the stairs of the old lighthouse and lit the lamp."

    @Test func resumedUtteranceIsSynthesizedFromTheWordAndIsShorterThanTheWholeUtterance() async throws {
        let source = try UtteranceRenderSourceTests.makeSource()
        source.settings.speed = 2
        let index = try #require((0..<12).first { source.plannedUtterance(at: $0)?.text == Self.longUtterance })
        let utterance = try #require(source.plannedUtterance(at: index))
        let word = try #require(utterance.text.range(of: "lighthouse"))
        let whole = try await source.engine.synthesize(source.ttsUtterance(for: utterance, settings: source.settings))

        let resumedIndex = try #require(source.resume(item: index, from: word.lowerBound, newBase: 2 * UtterancePlanner.span))
        #expect(resumedIndex != index)
        #expect(source.plannedUtterance(at: resumedIndex)?.text == Self.longUtterance)
        let resumedFrames = try UtteranceRenderSourceTests.frames(of: source.openItem(at: resumedIndex))
        let resumed = try #require(source.synthesized(at: resumedIndex)).1
        #expect(resumedFrames > 0)
        // "lighthouse and lit the lamp." against the whole sentence at the same speed: well under it.
        #expect(Int64(resumedFrames) < whole.frameCount * 3 / 4, "resumed \(resumedFrames) frames, whole \(whole.frameCount)")
        // The words index the whole utterance's text, from the word resumed at.
        #expect(resumed.text == Self.longUtterance)
        let words = resumed.wordBoundaries.map { String(resumed.text[$0.range]) }
        #expect(words.first == "lighthouse", "\(words)")
        #expect(words.last == "lamp", "\(words)")
        #expect(resumed.wordBoundaries.first?.range.lowerBound == word.lowerBound)

        // Heard once from its middle: opening it again speaks the whole utterance.
        _ = try source.openItem(at: resumedIndex + 1)
        let again = try UtteranceRenderSourceTests.frames(of: source.openItem(at: resumedIndex))
        // The same text synthesized twice in one process differs by a few tens of ms (LINUX-INTEROP.md):
        // 50 ms of tolerance, far below the quarter of the sentence the resumed part lacks.
        #expect(abs(Int64(again) - whole.frameCount) <= 22_050 / 20, "again \(again), whole \(whole.frameCount)")
    }

    @Test func speedChangeMidUtteranceContinuesAtTheWordHeardWithoutAnnouncingTheUtteranceAgain() async throws {
        let (synthesizer, _) = try PublicationSpeechSynthesizerTests.make(output: .null, realtime: true)
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        try await synthesizer.start(from: nil)
        // Five words into the long utterance.
        await recorder.wait {
            recorder.utterances.last?.0.text == Self.longUtterance
                && Self.wordsHeard(in: recorder.events.withLock { $0 }) >= 5
        }
        await synthesizer.setSpeed(2)
        let changedAt = recorder.events.withLock { $0.count }
        let lastBefore = try #require(recorder.ranges.last)
        await recorder.wait { recorder.events.withLock { $0.dropFirst(changedAt).contains { if case .range = $0 { true } else { false } } } }
        await recorder.wait { recorder.utterances.count >= 5 }
        await synthesizer.close()

        let after = recorder.events.withLock { Array($0.dropFirst(changedAt)) }
        let firstRange = try #require(after.compactMap { if case .range(let l) = $0 { l } else { nil } }.first)
        #expect(firstRange.text.highlight != "Ada")
        #expect(firstRange.locations == lastBefore.locations)
        // The word being heard or a later one: never an earlier one.
        #expect((firstRange.text.before ?? "").count >= (lastBefore.text.before ?? "").count, "\(lastBefore.text) then \(firstRange.text)")
        // No second `utterance` event for the same utterance; the next one comes after it.
        let texts = recorder.utterances.map(\.0.text)
        #expect(texts.filter { $0 == Self.longUtterance }.count == 1, "\(texts)")
        let speeds = await synthesizer.currentConfiguration.speed
        #expect(speeds == 2)
    }

    /// The `range` events since the last `utterance` event.
    static func wordsHeard(in events: [SpeechSynthesizerEvent]) -> Int {
        var count = 0
        for event in events {
            switch event {
            case .utterance: count = 0
            case .range: count += 1
            default: break
            }
        }
        return count
    }
}
