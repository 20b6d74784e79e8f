// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

extension PublicationSpeechSynthesizer {
    /// Starts speaking, then keeps the actor busy until `renderThreadIsPast` holds for the source (or
    /// `timeout` seconds): the render thread's reports wait in their stream, unhandled, while it runs
    /// on. The output is started with the load (the state machine starts it only once the actor has
    /// handled the load's report; its second start is a no-op then). Blocks the actor's thread: tests only.
    func startHoldingReports(until renderThreadIsPast: @Sendable (UtteranceRenderSource) -> Bool, timeout: Double) throws {
        try start(from: nil)
        session.renderer.start()
        let deadline = Date().addingTimeInterval(timeout)
        while !renderThreadIsPast(source), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Plans from the start and opens its first `count` utterances as the render thread does, reading
    /// each to its end (so its synthesis ended and its words are known), with no report; returns
    /// their indices.
    func openFirstUtterances(_ count: Int) throws -> [Int] {
        let base = try plan(from: nil).item
        let items = Array(base..<(base + count))
        for item in items { _ = try UtteranceRenderSourceTests.frames(of: source.openItem(at: item)) }
        return items
    }

    /// Handles a heard position at the start of `item`, as a periodic report while playing does.
    func hearPlaying(item: Int) {
        didHear(RenderPosition(item: item, frame: 0, sampleRate: 22_050), in: .playing)
    }
}

/// Every utterance heard is announced once, in order, with all its words, however far the render
/// thread runs ahead of the actor handling its reports (a null output runs as fast as synthesis; a
/// loaded machine delays the actor). Real eSpeak NG, the real renderer, the unpaced null sink.
@Suite(.serialized) struct PublicationSpeechSynthesizerBacklogTests {
    /// The utterances the synthesizer plans for the sample book, in order: what must be announced.
    static func plannedTexts(skippedRoles: Set<String>) throws -> [String] {
        let publication = try PublicationOpener().open(url: PublicationSpeechSynthesizerTests.sampleEPUB)
        let planner = UtterancePlanner(content: try publication.content(from: nil), tokenizer: ContentTokenizer(),
                                       skippedRoles: skippedRoles, startLocator: nil, base: 0)
        var texts: [String] = []
        while let utterance = planner.utterance(at: texts.count) { texts.append(utterance.text) }
        return texts
    }

    @Test func reportsHandledLongAfterTheRenderThreadPassedKeepEveryUtteranceAndItsWords() async throws {
        let (synthesizer, engine) = try PublicationSpeechSynthesizerTests.make(output: .null, realtime: false)
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        let expected = try Self.plannedTexts(skippedRoles: SpeechSynthesizerConfiguration().skippedRoles)
        // More utterances than the source keeps behind the one it opens (4) plus its lookahead.
        try #require(expected.count >= 10, "the sample book has \(expected.count) utterances")

        // The first plan's utterance indices start at 2 x span (`plan(from:)`, epoch 1).
        let base = 2 * UtterancePlanner.span
        let last = base + expected.count - 1
        // No report handled until the render thread has opened the last utterance: the first
        // utterances' jobs are gone from the source by then (it keeps 4 behind the one it opens).
        try await synthesizer.startHoldingReports(until: { source in
            source.synthesized(at: last) != nil && source.synthesized(at: base) == nil
        }, timeout: 60)
        await recorder.wait { recorder.states.last == .ended }
        await synthesizer.close()
        #expect(recorder.states.last == .ended)

        #expect(recorder.utterances.map(\.0.text) == expected)
        // Each utterance's range events follow it: as many as its words.
        var rangesAfter: [Int] = []
        for event in recorder.events.withLock({ $0 }) {
            switch event {
            case .utterance: rangesAfter.append(0)
            case .range: if !rangesAfter.isEmpty { rangesAfter[rangesAfter.count - 1] += 1 }
            default: break
            }
        }
        for (index, (utterance, voice)) in recorder.utterances.enumerated() where index < rangesAfter.count {
            let words = try engine.synthesizeBlocking(TTSUtterance(text: utterance.text, voiceOrLanguage: .voice(voice))).wordBoundaries.count
            #expect(rangesAfter[index] == words, "utterance \(index) \"\(utterance.text)\": \(rangesAfter[index]) range events, \(words) words")
        }
    }

    @Test func aHeardPositionPastAShortUtteranceAnnouncesItWithAllItsWords() async throws {
        let (synthesizer, engine) = try PublicationSpeechSynthesizerTests.make(output: .null, realtime: false)
        let recorder = PublicationSpeechSynthesizerTests.Recorder(synthesizer)
        let items = try await synthesizer.openFirstUtterances(3)
        // Two periodic reports, the second already in the third utterance: the second utterance
        // (shorter than the report interval, or reports handled late) had no report of its own.
        await synthesizer.hearPlaying(item: items[0])
        await synthesizer.hearPlaying(item: items[2])
        await recorder.wait(5) { recorder.utterances.count >= 3 }
        await synthesizer.close()
        let expected = try Self.plannedTexts(skippedRoles: SpeechSynthesizerConfiguration().skippedRoles)
        #expect(recorder.utterances.map(\.0.text) == Array(expected.prefix(3)))
        var rangesAfter: [Int] = []
        for event in recorder.events.withLock({ $0 }) {
            switch event {
            case .utterance: rangesAfter.append(0)
            case .range: if !rangesAfter.isEmpty { rangesAfter[rangesAfter.count - 1] += 1 }
            default: break
            }
        }
        // The first two were heard to their end: every word reported; the third is at its start.
        let words = try recorder.utterances.prefix(2).map { utterance, voice in
            try engine.synthesizeBlocking(TTSUtterance(text: utterance.text, voiceOrLanguage: .voice(voice))).wordBoundaries.count
        }
        #expect(Array(rangesAfter.prefix(2)) == words)
    }
}
