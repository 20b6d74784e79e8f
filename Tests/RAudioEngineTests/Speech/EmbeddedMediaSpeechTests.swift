// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// An `audio` element met while reading aloud is played in place, between the text before and after it,
/// with real eSpeak NG, the real decoders and the WAV sink: its first source that decodes, a warning
/// and reading on when none does, nothing when its role is skipped.
@Suite(.serialized) struct EmbeddedMediaSpeechTests {
    /// One second of a square wave at ±0.5: samples no voice makes for that long.
    static let clip = TestBooks.squareWaveWAV(seconds: 1)

    struct Reading {
        var events: [SpeechSynthesizerEvent]
        var wav: RenderedWAV

        var texts: [String] {
            events.compactMap {
                switch $0 {
                case .utterance(let utterance, _): utterance.text
                case .media(_, let source): "[\(source.href)]"
                default: nil
                }
            }
        }
        var warnings: [NavigatorIssue] { events.compactMap { if case .warning(let issue) = $0 { issue } else { nil } } }

        /// How many seconds of the output hold the clip's plateaus (|sample| at 0.5).
        var clipSeconds: Double {
            let frames = stride(from: 0, to: wav.samples.count, by: wav.channelCount).filter { abs(abs(wav.samples[$0]) - 0.5) < 0.01 }.count
            return Double(frames) / Double(wav.sampleRate)
        }
    }

    /// Reads aloud a one-page book whose body is `body`, with `resources` beside it, to a WAV file (in real
    /// time with `duringMedia`, which is called when the media starts being heard).
    static func read(body: String, resources: [(name: String, mediaType: String, data: Data)],
                     skippedRoles: Set<String> = ContentRole.skippableNames,
                     duringMedia: (@Sendable (PublicationSpeechSynthesizer) async -> Void)? = nil) async throws -> Reading {
        let page = "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\">"
            + "<head><title>t</title></head><body>\(body)</body></html>"
        let book = try TestBooks.epub(pages: [("page.xhtml", "application/xhtml+xml", page)], language: "en", resources: resources)
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-media-\(UUID().uuidString).wav")
        defer {
            try? FileManager.default.removeItem(at: book)
            try? FileManager.default.removeItem(at: wav)
        }
        let publication = try PublicationOpener().open(url: book)
        let engine = try ESpeakEngine(presets: VoicePresets.load().presets)
        let synthesizer = try PublicationSpeechSynthesizer(
            publication: publication, engine: engine,
            components: AudioEngineComponents.make(output: .wav(path: wav.path), realtime: duringMedia != nil),
            configuration: SpeechSynthesizerConfiguration(skippedRoles: skippedRoles))
        let events = Locked<[SpeechSynthesizerEvent]>([])
        let stream = synthesizer.events
        let recording = Task { for await event in stream { events.withLock { $0.append(event) } } }
        try await synthesizer.start(from: nil)
        let deadline = Date().addingTimeInterval(60)
        var calledDuringMedia = false
        while Date() < deadline, !events.withLock({ $0.contains { if case .stateChanged(.ended, _) = $0 { true } else { false } } }) {
            if let duringMedia, !calledDuringMedia, events.withLock({ $0.contains { if case .media = $0 { true } else { false } } }) {
                calledDuringMedia = true
                await duringMedia(synthesizer)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        await synthesizer.close()
        await recording.value
        return Reading(events: events.withLock { $0 }, wav: try RenderedWAV(url: wav))
    }

    @Test func anAudioElementIsPlayedInPlaceBetweenTheTextAroundIt() async throws {
        let reading = try await Self.read(body: "<p>Before the clip.</p><audio controls=\"controls\" src=\"clip.wav\">Not supported.</audio><p>After the clip.</p>",
                                          resources: [("clip.wav", "audio/wav", Self.clip)])
        #expect(reading.texts == ["Before the clip.", "[EPUB/clip.wav]", "After the clip."])
        let media = try #require(reading.events.lazy.compactMap { if case .media(let utterance, _) = $0 { utterance } else { nil } }.first)
        #expect(media.role == .audio)
        #expect(media.locator.href == "EPUB/page.xhtml")
        #expect(media.locator.locations.cssSelector?.hasSuffix("audio:nth-child(2)") == true, "\(media.locator.locations)")
        #expect(reading.warnings.isEmpty, "\(reading.warnings.map(\.message))")
        // The whole second of the clip is in the output (its plateaus: all but the resampler's edges).
        #expect(reading.clipSeconds > 0.9 && reading.clipSeconds < 1.1, "\(reading.clipSeconds) s of the clip rendered")
    }

    /// A new speed (or voice, or pitch) while the clip plays is for the speech after it: the clip plays on,
    /// whole, once.
    @Test func changingTheSpeedWhileTheClipPlaysLeavesItWhole() async throws {
        let reading = try await Self.read(body: "<p>Before the clip.</p><audio src=\"clip.wav\"/><p>After the clip.</p>",
                                          resources: [("clip.wav", "audio/wav", Self.clip)]) { synthesizer in
            await synthesizer.setSpeed(1.5)
        }
        #expect(reading.texts == ["Before the clip.", "[EPUB/clip.wav]", "After the clip."])
        #expect(reading.clipSeconds > 0.9 && reading.clipSeconds < 1.1, "\(reading.clipSeconds) s of the clip rendered")
    }

    @Test func theFirstSourceThatDecodesIsPlayed() async throws {
        let body = "<p>Before the clip.</p><audio><source src=\"missing.opus\" type=\"audio/ogg\"/><source src=\"noise.mp3\" type=\"audio/mpeg\"/>"
            + "<source src=\"clip.wav\" type=\"audio/wav\"/></audio><p>After the clip.</p>"
        let reading = try await Self.read(body: body, resources: [("noise.mp3", "audio/mpeg", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
                                                                   ("clip.wav", "audio/wav", Self.clip)])
        #expect(reading.texts == ["Before the clip.", "[EPUB/clip.wav]", "After the clip."])
        #expect(reading.warnings.isEmpty, "\(reading.warnings.map(\.message))")
        #expect(reading.clipSeconds > 0.9)
    }

    @Test func aVideoIsHeardThroughItsSoundWithTheTypeItsSourceDeclares() async throws {
        let body = "<p>Before the film.</p><video controls=\"controls\"><source src=\"film.webm\" type=\"video/webm; codecs=&quot;vp9, opus&quot;\"/>"
            + "</video><p>After the film.</p>"
        let reading = try await Self.read(body: body, resources: [("film.webm", "video/webm", Self.clip)])
        #expect(reading.texts == ["Before the film.", "[EPUB/film.webm]", "After the film."])
        let (media, source) = try #require(reading.events.lazy.compactMap { if case .media(let utterance, let source) = $0 { (utterance, source) } else { nil } }.first)
        #expect(media.role == .video)
        #expect(source.type == "video/webm")
        #expect(reading.clipSeconds > 0.9)
    }

    @Test func anElementNoneOfWhoseSourcesPlaysIsSkippedWithAWarningAndReadingGoesOn() async throws {
        let reading = try await Self.read(body: "<p>Before the clip.</p><audio src=\"gone.mp3\"/><p>After the clip.</p>", resources: [])
        #expect(reading.texts == ["Before the clip.", "After the clip."])
        let warning = try #require(reading.warnings.first)
        #expect(warning.code == .mediaSkipped)
        #expect(warning.message.contains("EPUB/page.xhtml") && warning.message.contains("EPUB/gone.mp3"), "\(warning.message)")
        #expect(reading.events.contains { if case .stateChanged(.ended, _) = $0 { true } else { false } })
    }

    @Test func skippingTheAudioRoleLeavesTheClipOut() async throws {
        let reading = try await Self.read(body: "<p>Before the clip.</p><audio src=\"clip.wav\"/><p>After the clip.</p>",
                                          resources: [("clip.wav", "audio/wav", Self.clip)],
                                          skippedRoles: try ContentRole.names(inList: "media"))
        #expect(reading.texts == ["Before the clip.", "After the clip."])
        #expect(reading.clipSeconds < 0.05, "\(reading.clipSeconds) s of the clip rendered")
    }
}
