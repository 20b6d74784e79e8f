// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// `seek` in narration time with real SMIL, real MP3 decoding and the WAV sink.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct MediaOverlayNavigatorSeekTests {
    /// One frame at 22 050 Hz, plus the millisecond rounding of `t=` in a locator.
    static let tolerance = 1.0 / 22_050 + 0.0005

    func begin(_ locator: Locator?) -> Double? { locator?.locations.time?.begin }

    @Test func aSeekLandsOnTheCoveringParAtTheRightFrameAndTheRenderHasExactlyTheFramesLeft() async throws {
        let publication = try NarrationFixtures.open(NarrationFixtures.navigation)
        let pars = try NarrationFixtures.recordedPars(of: publication)
        let total = pars.reduce(0) { $0 + $1.duration }
        let time = 20.0
        let covering = try #require(pars.lastIndex { $0.start <= time })
        let offset = time - pars[covering].start
        let folder = try NavigatorFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("seek.wav")
        let navigator = try MediaOverlayNavigator(publication: publication, components: AudioEngineComponents.make(output: .wav(path: wav.path)), engine: nil)
        let events = NarrationEventRecorder(navigator)
        #expect(await navigator.seek(to: time))
        try await events.wait(for: .paused)
        let location = await navigator.currentLocation
        #expect(([location.href] + location.locations.fragments).joined(separator: "#") == pars[covering].textHref)
        let audio = await navigator.currentAudioLocation
        #expect(audio?.href == pars[covering].clip.href)
        #expect(begin(audio).map { abs($0 - (pars[covering].clip.begin + offset)) <= Self.tolerance } == true, "\(String(describing: audio))")
        let progression = await navigator.currentLocation.locations.totalProgression
        #expect(progression.map { abs($0 - time / total) < 1e-4 } == true)
        #expect(events.utterances.last?.clip == pars[covering].clip)
        await navigator.play()
        try await events.wait(for: .ended)
        await navigator.close()
        try await events.waitUntilFinished()
        let rendered = try RenderedWAV(url: wav)
        let expected = pars[covering].frames(from: offset, rate: 22_050) + pars[(covering + 1)...].reduce(0) { $0 + $1.frames(from: 0, rate: 22_050) }
        #expect(rendered.sampleRate == 22_050)
        #expect(rendered.frameCount == expected)
        #expect(events.utterances.map(\.clip) == pars[covering...].map(\.clip))
    }

    @Test func relativeSeeksCrossParsAndDocumentsBothWays() async throws {
        let publication = try NarrationFixtures.open(NarrationFixtures.navigation)
        let pars = try NarrationFixtures.recordedPars(of: publication)
        let chapter2 = try #require(pars.firstIndex { $0.clip.href.hasSuffix("ch2.mp3") })
        let navigator = try MediaOverlayNavigator(publication: publication, components: AudioEngineComponents.make(output: .null), engine: nil)
        let events = NarrationEventRecorder(navigator)
        let start = pars[chapter2].start + 0.5
        // An absolute seek into chapter 2, back 3 s into chapter 1's last par, on 5 s to chapter 2's second.
        let moves: [(by: Double, time: Double)] = [(start, start), (-3, start - 3), (5, start + 2)]
        for (step, move) in moves.enumerated() {
            let moved = step == 0 ? await navigator.seek(to: move.by) : await navigator.seek(by: move.by)
            #expect(moved)
            try await events.wait(for: .paused, count: step + 1)
            let covering = try #require(pars.lastIndex { $0.start <= move.time })
            let audio = await navigator.currentAudioLocation
            #expect(audio?.href == pars[covering].clip.href, "step \(step)")
            let expected = pars[covering].clip.begin + move.time - pars[covering].start
            #expect(begin(audio).map { abs($0 - expected) <= Self.tolerance } == true, "step \(step): \(String(describing: audio)), expected t=\(expected)")
            #expect(await navigator.currentTime.map { abs($0 - move.time) <= Self.tolerance } == true)
        }
        // Clamped at both ends.
        #expect(await navigator.seek(by: -1000))
        try await events.wait(for: .paused, count: 4)
        #expect(await navigator.currentTime == 0)
        await navigator.close()
    }
}
