// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// Damaged and undecodable tracks are skipped with a warning; the rest of the book plays.
@Suite("AudioNavigator skips damaged tracks")
struct AudioNavigatorDamagedTrackTests {
    /// Makes a folder publication of `files` (name -> source URL and byte count to keep), renders it
    /// whole to WAV and returns the WAV and the events.
    func renderFolder(_ files: [(String, URL, Int?)]) async throws -> (RenderedWAV, EventRecorder) {
        let folder = try NavigatorFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        for (name, source, keep) in files {
            var data = try Data(contentsOf: source)
            if let keep { data = data.prefix(keep) }
            try data.write(to: book.appendingPathComponent(name))
        }
        let wav = folder.appendingPathComponent("out.wav")
        let publication = try NavigatorFixtures.open(book)
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .wav(path: wav.path)))
        let events = EventRecorder(navigator)
        await navigator.play()
        try await events.wait(for: .ended)
        await navigator.close()
        try await events.waitUntilFinished()
        return (try RenderedWAV(url: wav), events)
    }

    @Test func truncatedMP3InTheMiddleWarnsAndTheRestPlays() async throws {
        let first = NavigatorFixtures.sampleFolder.appendingPathComponent("01-the-storm.mp3")
        let third = NavigatorFixtures.sampleFolder.appendingPathComponent("03-le-matin.mp3")
        let size = try Data(contentsOf: third).count
        let (wav, events) = try await renderFolder([("01.mp3", first, nil), ("02.mp3", third, size / 2), ("03.mp3", third, nil)])
        let warning = try #require(events.warnings.first)
        #expect(warning.code == .trackCorrupt)
        #expect(warning.href == "02.mp3")
        #expect(warning.message.contains("02.mp3"))
        #expect(!warning.fatal)
        #expect(events.errors.isEmpty)
        let one = try NavigatorFixtures.decode(first)
        let decodedThree = try NavigatorFixtures.decode(third)
        let three = try NavigatorFixtures.convertedFrameCount(decodedThree.samples, from: decodedThree.format, to: one.format)
        // The first and last tracks whole (the last converted to the first's rate), plus part of the broken one.
        let whole = one.samples.count + three
        #expect(wav.frameCount > whole + three / 4)
        #expect(wav.frameCount < whole + three * 3 / 4)
        #expect(events.states.last == .ended)
        if ReadiumValidator.isAvailable { try NavigatorFixtures.validate(events.locators) }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anOpusTrackBetweenMP3sPlaysConverted() async throws {
        let first = NavigatorFixtures.sampleFolder.appendingPathComponent("01-the-storm.mp3")
        let third = NavigatorFixtures.sampleFolder.appendingPathComponent("03-le-matin.mp3")
        let opus = try Corpus.file("audio/opus/w3c-epub-tests__pub-cmt-opus__001.opus")
        let (wav, events) = try await renderFolder([("01.mp3", first, nil), ("02.opus", opus, nil), ("03.mp3", third, nil)])
        #expect(events.warnings.isEmpty)
        let one = try NavigatorFixtures.decode(first)
        let three = try NavigatorFixtures.decode(third)
        let middle = try NavigatorFixtures.decode(opus)
        let expected = one.samples.count
            + (try NavigatorFixtures.convertedFrameCount(middle.samples, from: middle.format, to: one.format))
            + (try NavigatorFixtures.convertedFrameCount(three.samples, from: three.format, to: one.format))
        #expect(abs(wav.frameCount - expected) <= 2, "\(wav.frameCount) frames rendered, \(expected) expected")
        #expect(events.states.last == .ended)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anAudibleTrackIsSkippedNamingItsDRM() async throws {
        let first = NavigatorFixtures.sampleFolder.appendingPathComponent("01-the-storm.mp3")
        let third = NavigatorFixtures.sampleFolder.appendingPathComponent("03-le-matin.mp3")
        let aax = try Corpus.file("audio/formats/bad__tlsharp__second.aax")
        let (wav, events) = try await renderFolder([("01.mp3", first, nil), ("02.m4b", aax, nil), ("03.mp3", third, nil)])
        #expect(events.warnings.map(\.code) == [.trackUndecodable])
        #expect(events.warnings.first?.href == "02.m4b")
        #expect(events.warnings.first?.message.contains("Audible DRM") == true, "\(events.warnings.first?.message ?? "")")
        let one = try NavigatorFixtures.decode(first)
        let three = try NavigatorFixtures.decode(third)
        let expected = one.samples.count + (try NavigatorFixtures.convertedFrameCount(three.samples, from: three.format, to: one.format))
        #expect(wav.frameCount == expected)
        #expect(events.states.last == .ended)
    }

    @Test func publicationWithNoPlayableTrackFails() async throws {
        let folder = try NavigatorFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let third = NavigatorFixtures.sampleFolder.appendingPathComponent("03-le-matin.mp3")
        // Only the first bytes: a header and no audio frame at all.
        try Data(contentsOf: third).prefix(64).write(to: folder.appendingPathComponent("01.mp3"))
        let publication = try NavigatorFixtures.open(folder)
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .null))
        let events = EventRecorder(navigator)
        await navigator.play()
        try await events.wait { $0.contains { if case .stateChanged(let s, _) = $0 { s == .failed || s == .ended } else { false } } }
        #expect(events.states.last == .failed)
        #expect(events.errors.first?.fatal == true)
        #expect(events.errors.first?.code == .noPlayableTrack)
        await navigator.close()
    }
}
