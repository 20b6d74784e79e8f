// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing
@testable import ReadiumNavigator

/// The navigator's states and events over deterministic decoders and an in-memory sink.
@Suite("AudioNavigator states")
struct AudioNavigatorStateTests {
    func events(of navigator: AudioNavigator, until done: @escaping @Sendable ([AudioNavigatorEvent]) -> Bool) async -> [AudioNavigatorEvent] {
        var collected: [AudioNavigatorEvent] = []
        for await event in navigator.events {
            collected.append(event)
            if done(collected) { break }
        }
        return collected
    }

    static func state(_ event: AudioNavigatorEvent) -> PlaybackState? {
        if case .stateChanged(let state, _) = event { state } else { nil }
    }

    @Test func itemsPlayGaplesslyInOrderThenEnd() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["3000.mp3", "4100.mp3", "777.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        await navigator.play()
        let all = await events(of: navigator) { $0.contains { Self.state($0) == .ended } }
        #expect(all.compactMap(Self.state) == [.loading, .playing, .ended])
        let samples = sink.samples.withLock { $0 }
        #expect(samples.count == 3000 + 4100 + 777)
        // Each track's frames in order, none dropped or repeated.
        var expected: [Float] = []
        for count in [3000, 4100, 777] { expected += (0..<count).map { Float($0) / 1e6 } }
        #expect(samples == expected)
        #expect(sink.formats.withLock { $0 } == [TestBooks.format])
        let tracks = all.compactMap { if case .trackChanged(let index, _, _) = $0 { index } else { nil } }
        #expect(tracks == [0, 1, 2])
        let last = await navigator.currentLocation
        #expect(last.href == "777.mp3" && last.locations.totalProgression == 1)
        await navigator.close()
    }

    @Test func corruptAndUnsupportedTracksWarnAndTheRestPlays() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["1000.mp3", "2000-corrupt500.mp3", "opus.mp3", "300.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        await navigator.play()
        let all = await events(of: navigator) { $0.contains { Self.state($0) == .ended } }
        let warnings = all.compactMap { if case .warning(let issue) = $0 { issue } else { nil } }
        #expect(warnings.map(\.code) == [.trackCorrupt, .trackUndecodable])
        #expect(warnings.map(\.href) == ["2000-corrupt500.mp3", "opus.mp3"])
        #expect(warnings.allSatisfy { !$0.fatal && $0.message.contains($0.href ?? "?") })
        #expect(sink.samples.withLock { $0.count } == 1000 + 500 + 300)
        #expect(all.compactMap(Self.state).last == .ended)
        await navigator.close()
    }

    @Test func clipStopsAtItsEndInStoppedState() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["5000.mp3", "5000.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        try await navigator.go(to: Locator(href: "5000.mp3", type: "audio/mpeg", locations: .init(fragments: ["t=1.5,2.25"])))
        await navigator.play()
        let all = await events(of: navigator) { $0.contains { Self.state($0) == .stopped } }
        // play() came while the clip was loading: it plays once loaded, without a pause in between.
        #expect(all.compactMap(Self.state) == [.loading, .playing, .stopped])
        let samples = sink.samples.withLock { $0 }
        #expect(samples == (1500..<2250).map { Float($0) / 1e6 })
        await navigator.close()
    }

    @Test func stopAfterEndsTheOutputAfterThatMuchAudioAcrossTracks() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["1000.mp3", "1000.mp3", "1000.mp3"])
        var configuration = AudioNavigatorConfiguration()
        configuration.stopAfter = 1.5
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink), configuration: configuration)
        await navigator.play()
        _ = await events(of: navigator) { $0.contains { Self.state($0) == .stopped } }
        #expect(sink.samples.withLock { $0.count } == 1500)
        #expect(await navigator.currentLocation.locations.fragments == ["t=0.5"])
        await navigator.close()
    }

    @Test func protectedAndAudiolessPublicationsAreRefused() throws {
        let manifest = Manifest(metadata: Metadata(title: .plain("T")), readingOrder: [Link(href: "a.mp3", type: "audio/mpeg")])
        let lcp = Publication(manifest: manifest, container: NamesContainer(names: ["a.mp3"]), mediaType: .readiumAudiobook, protection: .lcp)
        #expect(throws: AudioNavigatorError.self) { try AudioNavigator(publication: lcp, components: TestBooks.components(sink: MemorySink())) }
        let text = Publication(manifest: Manifest(metadata: Metadata(), readingOrder: [Link(href: "a.html", type: "text/html")]),
                               container: NamesContainer(names: ["a.html"]), mediaType: .readiumWebPubManifest)
        do {
            _ = try AudioNavigator(publication: text, components: TestBooks.components(sink: MemorySink()))
            Issue.record("an HTML reading order was accepted")
        } catch let error as AudioNavigatorError {
            #expect(error.code == .noAudio)
        }
    }

    @Test func closeFinishesTheEventStreamAndIsIdempotent() async throws {
        let navigator = try AudioNavigator(publication: TestBooks.publication(["100.mp3"]), components: TestBooks.components(sink: MemorySink()))
        await navigator.close()
        await navigator.close()
        var count = 0
        for await _ in navigator.events { count += 1 }
        #expect(count == 0)
    }
}
