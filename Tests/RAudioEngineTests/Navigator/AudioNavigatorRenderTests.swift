// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// The navigator with real decoders, sonic, soxr and the WAV sink over the sample audiobook.
@Suite("AudioNavigator renders to WAV")
struct AudioNavigatorRenderTests {
    /// Runs a navigator over `publication` rendering to a WAV file, lets `body` drive it, closes it and
    /// returns the WAV and the events.
    func render(
        _ publication: Publication, configuration: AudioNavigatorConfiguration = .init(),
        _ body: (AudioNavigator, EventRecorder) async throws -> Void
    ) async throws -> (RenderedWAV, EventRecorder) {
        let folder = try NavigatorFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("out.wav")
        let navigator = try AudioNavigator(
            publication: publication, components: AudioEngineComponents.make(output: .wav(path: wav.path)),
            configuration: configuration)
        let recorder = EventRecorder(navigator)
        try await body(navigator, recorder)
        await navigator.close()
        try await recorder.waitUntilFinished()
        return (try RenderedWAV(url: wav), recorder)
    }

    @Test func wholeSampleBookRendersGaplesslyWithExactlyTheConvertedFramesOfEveryTrack() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        let (wav, events) = try await render(publication) { navigator, events in
            await navigator.play()
            try await events.wait(for: .ended)
        }
        let tracks = try publication.readingOrder.map {
            try NavigatorFixtures.decode(NavigatorFixtures.sampleFolder.appendingPathComponent($0.href))
        }
        let first = tracks[0].format
        let expected = try tracks.reduce(0) { $0 + (try NavigatorFixtures.convertedFrameCount($1.samples, from: $1.format, to: first)) }
        #expect(wav.sampleRate == first.sampleRate && wav.channelCount == first.channelCount)
        #expect(wav.frameCount == expected)
        // The first track arrives untouched, sample for sample (16-bit rounding aside).
        let firstTrack = tracks[0].samples
        var worst: Float = 0
        for index in 0..<firstTrack.count { worst = max(worst, abs(wav.samples[index] - max(-1, min(1, firstTrack[index])))) }
        #expect(worst <= 1.5 / 32767)
        #expect(events.states == [.loading, .playing, .ended])
        let changes = events.all.compactMap { if case .trackChanged(let index, _, _) = $0 { index } else { nil } }
        #expect(changes == [0, 1, 2])
        #expect(events.warnings.isEmpty && events.errors.isEmpty)
        let last = try #require(events.locators.last)
        #expect(last.href == "03-le-matin.mp3")
        #expect(last.locations.totalProgression.map { $0 > 0.99 } == true)
        if ReadiumValidator.isAvailable { try NavigatorFixtures.validate(events.locators) }
    }

    @Test func seekAcrossTracksLandsOnTheRightTrackAndSecond() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        let firstDuration = try #require(publication.readingOrder[0].duration)
        var configuration = AudioNavigatorConfiguration()
        configuration.stopAfter = 1
        let (wav, events) = try await render(publication, configuration: configuration) { navigator, events in
            await navigator.seek(to: firstDuration + 5.25)
            try await events.wait(for: .paused)
            let location = await navigator.currentLocation
            #expect(location.href == "02-the-ship.ogg")
            #expect(location.locations.fragments == ["t=5.25"])
            #expect(location.title == "Chapter 2: The Ship")
            await navigator.play()
            try await events.wait(for: .stopped)
        }
        let ogg = NavigatorFixtures.sampleFolder.appendingPathComponent("02-the-ship.ogg")
        let direct = try NavigatorFixtures.decode(ogg, startFrame: Int64(5.25 * 44_100), maxFrames: 44_100)
        #expect(wav.sampleRate == 44_100 && wav.channelCount == 2)
        #expect(wav.frameCount == 44_100)
        #expect(wav.samples.count == direct.samples.count)
        var worst: Float = 0
        for index in 0..<min(wav.samples.count, direct.samples.count) {
            worst = max(worst, abs(wav.samples[index] - max(-1, min(1, direct.samples[index]))))
        }
        #expect(worst <= 1.5 / 32767)
        if ReadiumValidator.isAvailable { try NavigatorFixtures.validate(events.locators) }
    }

    @Test func seekByCrossesBackIntoThePreviousTrack() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .null))
        let events = EventRecorder(navigator)
        try await navigator.go(to: Link(href: "02-the-ship.ogg#t=2"))
        try await events.wait(for: .paused)
        await navigator.seek(by: -4)
        try await events.wait { $0.filter { if case .stateChanged(.paused, _) = $0 { true } else { false } }.count == 2 }
        let location = await navigator.currentLocation
        #expect(location.href == "01-the-storm.mp3")
        let expected = try #require(publication.readingOrder[0].duration) - 2
        #expect(location.locations.time?.begin.map { abs($0 - expected) < 0.002 } == true)
        #expect(location.title == "The lamp goes out")
        await navigator.seek(by: -1000)
        await navigator.seek(to: 1e9)
        try await events.wait { $0.filter { if case .stateChanged(.paused, _) = $0 { true } else { false } }.count >= 2 }
        await navigator.close()
    }

    @Test func doubleSpeedHalvesTheRenderedLength() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        var configuration = AudioNavigatorConfiguration()
        configuration.speed = 2
        configuration.stopAfter = 10
        let (wav, _) = try await render(publication, configuration: configuration) { navigator, events in
            await navigator.play()
            try await events.wait(for: .stopped)
        }
        let expected = 5.0 * Double(wav.sampleRate)
        #expect(abs(Double(wav.frameCount) - expected) <= expected * 0.02, "\(wav.frameCount) frames, expected about \(expected)")
    }

    @Test func clipLocatorRendersExactlyItsThreeSecondsThenStops() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        let (wav, events) = try await render(publication) { navigator, events in
            try await navigator.go(to: Locator(href: "01-the-storm.mp3", type: "audio/mpeg",
                                               locations: .init(fragments: ["t=2,5"])))
            await navigator.play()
            try await events.wait(for: .stopped)
        }
        #expect(wav.frameCount == 3 * 22_050)
        let direct = try NavigatorFixtures.decode(NavigatorFixtures.sampleFolder.appendingPathComponent("01-the-storm.mp3"),
                                                  startFrame: 2 * 22_050, maxFrames: 3 * 22_050)
        var worst: Float = 0
        for index in 0..<min(wav.samples.count, direct.samples.count) {
            worst = max(worst, abs(wav.samples[index] - max(-1, min(1, direct.samples[index]))))
        }
        #expect(worst <= 1.5 / 32767)
        #expect(events.states.last == .stopped)
        #expect(!events.states.contains(.ended))
        let last = try #require(events.locators.last)
        #expect(last.locations.fragments == ["t=5"])
    }

    @Test func pauseAndResumeKeepThePositionAndDropNothing() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        var configuration = AudioNavigatorConfiguration()
        configuration.stopAfter = 20
        var pausedAt: Locator?
        let (wav, events) = try await render(publication, configuration: configuration) { navigator, events in
            await navigator.play()
            try await events.wait { $0.contains { if case .position = $0 { true } else { false } } }
            await navigator.pause()
            try await events.wait(for: .paused)
            // The render thread confirms the heard position of the pause a moment later.
            try await Task.sleep(for: .milliseconds(50))
            pausedAt = await navigator.currentLocation
            try await Task.sleep(for: .milliseconds(50))
            #expect(await navigator.currentLocation == pausedAt)
            await navigator.play()
            try await events.wait(for: .stopped)
        }
        let paused = try #require(pausedAt)
        #expect(paused.href == "01-the-storm.mp3")
        #expect(events.states == [.loading, .playing, .paused, .playing, .stopped])
        // 20 s of the first track at its own format, not a frame more or less despite the pause.
        #expect(wav.frameCount == 20 * 22_050)
    }

    @Test func goForwardAndBackwardMoveByTrack() async throws {
        let publication = try NavigatorFixtures.open(NavigatorFixtures.sampleBook)
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .null))
        let events = EventRecorder(navigator)
        await navigator.goForward()
        try await events.wait(for: .paused)
        #expect(await navigator.currentLocation.href == "02-the-ship.ogg")
        await navigator.goForward()
        try await events.wait { $0.filter { if case .stateChanged(.paused, _) = $0 { true } else { false } }.count == 2 }
        #expect(await navigator.currentLocation.href == "03-le-matin.mp3")
        await navigator.goBackward()
        try await events.wait { $0.filter { if case .stateChanged(.paused, _) = $0 { true } else { false } }.count == 3 }
        #expect(await navigator.currentLocation.href == "02-the-ship.ogg")
        await #expect(throws: AudioNavigatorError.self) {
            try await navigator.go(to: Locator(href: "missing.mp3", type: "audio/mpeg"))
        }
        await navigator.close()
    }
}
