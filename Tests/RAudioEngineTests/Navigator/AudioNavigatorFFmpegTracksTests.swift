// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// Books of FFmpeg formats through the navigator: tracks of one signal cut at arbitrary points and
/// encoded as M4A join without a gap, sample for sample.
@Suite("AudioNavigator plays FFmpeg formats")
struct AudioNavigatorFFmpegTracksTests {
    @Test func anM4ABookRendersGaplesslyAsTheSumOfItsTracks() async throws {
        let folder = try NavigatorFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        // One tone, cut at points that fall inside AAC frames; each part is its own encode.
        let cuts: [(start: Double, length: Double)] = [(0, 1.234), (1.234, 2.0007), (3.2347, 1.5)]
        for (index, cut) in cuts.enumerated() {
            let url = book.appendingPathComponent(String(format: "%02d.m4a", index + 1))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=44100:duration=5",
                                 "-ss", String(cut.start), "-t", String(cut.length), "-ac", "2", "-c:a", "aac", "-aac_pns", "0", url.path]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
        }
        let publication = try NavigatorFixtures.open(book)
        let wav = folder.appendingPathComponent("out.wav")
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .wav(path: wav.path)))
        let events = EventRecorder(navigator)
        await navigator.play()
        try await events.wait(for: .ended)
        await navigator.close()
        try await events.waitUntilFinished()
        let rendered = try RenderedWAV(url: wav)
        let tracks = try publication.readingOrder.map { try NavigatorFixtures.decode(book.appendingPathComponent($0.href)) }
        let joined = tracks.flatMap(\.samples)
        #expect(events.warnings.isEmpty && events.errors.isEmpty)
        #expect(rendered.frameCount == joined.count / 2, "\(rendered.frameCount) frames rendered, the tracks have \(joined.count / 2)")
        // Each track's own samples, one after the other, and nothing between them (16-bit rounding aside).
        var worst: Float = 0
        for index in 0..<min(joined.count, rendered.samples.count) {
            worst = max(worst, abs(rendered.samples[index] - max(-1, min(1, joined[index]))))
        }
        #expect(worst <= 1.5 / 32767, "largest difference \(worst)")
        if ReadiumValidator.isAvailable { try NavigatorFixtures.validate(events.locators) }
        let lengths = tracks.map { Double($0.samples.count / 2) / 44100 }
        for (length, cut) in zip(lengths, cuts) {
            #expect(abs(length - cut.length) < 0.03, "a track of \(cut.length) s decodes to \(length) s")
        }
        // Each track lasts its edit, to the sample: no encoder delay before it, no padding after it.
        for (track, link) in zip(tracks, publication.readingOrder) {
            let stated = try FFmpegDecoderTests.statedLength(book.appendingPathComponent(link.href), rate: 44100)
            #expect(track.samples.count / 2 == stated, "\(link.href): \(track.samples.count / 2) frames, its edit \(String(describing: stated))")
        }
    }

    /// A lone M4B plays as a book: its locators carry the chapter being heard as their title.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anM4BsLocatorsNameItsChapters() async throws {
        let url = try Corpus.file("audio/formats/antennapod__auphonic.m4a")
        let publication = try PublicationOpener(audioFileInspector: FFmpegAudioFileInspector()).open(url: url)
        let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .null))
        let events = EventRecorder(navigator)
        await navigator.play()
        try await events.wait(for: .ended)
        await navigator.close()
        try await events.waitUntilFinished()
        let titles = events.locators.compactMap(\.title)
        #expect(titles.contains("Chapter 1 - ❤️😊"))
        #expect(titles.contains("Chapter 4"))
        #expect(events.warnings.isEmpty && events.errors.isEmpty)
        if ReadiumValidator.isAvailable { try NavigatorFixtures.validate(events.locators) }
    }
}
