// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing
@testable import ReadiumNavigator

/// A book ends only when its end was heard: a server that goes away, a track with no audio and a last
/// track that cannot be played end playback as a failure, where the listener was, never as `ended`.
@Suite("AudioNavigator end of a book")
struct AudioNavigatorEndTests {
    private let states = AudioNavigatorStateTests()

    private static func issues(_ events: [AudioNavigatorEvent]) -> (warnings: [NavigatorIssue], errors: [NavigatorIssue]) {
        (events.compactMap { if case .warning(let issue) = $0 { issue } else { nil } },
         events.compactMap { if case .error(let issue) = $0 { issue } else { nil } })
    }

    private static func isOver(_ events: [AudioNavigatorEvent]) -> Bool {
        events.contains { [.ended, .failed].contains(AudioNavigatorStateTests.state($0)) }
    }

    @Test func anUnreachableServerStopsPlaybackWhereTheListenerIsInsteadOfSkippingToTheEnd() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["1000.mp3", "2000-unreachable500.mp3", "300.mp3", "400.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        await navigator.play()
        let all = await states.events(of: navigator, until: Self.isOver)
        #expect(all.compactMap(AudioNavigatorStateTests.state) == [.loading, .playing, .failed])
        let (warnings, errors) = Self.issues(all)
        #expect(warnings.isEmpty, "no track is skipped: \(warnings)")
        #expect(errors.map(\.code) == [.trackUnreachable] && errors.allSatisfy(\.fatal), "\(errors)")
        #expect(errors.first?.href == "2000-unreachable500.mp3")
        #expect((errors.first?.cause as? AudioDecoderError)?.code == .sourceUnreachable, "the decoder's error is kept as the cause")
        // What was decoded before the server went away was heard; the place is kept there.
        #expect(sink.samples.withLock { $0.count } == 1000 + 500)
        let place = await navigator.currentLocation
        #expect(place.href == "2000-unreachable500.mp3" && place.locations.time?.begin == 0.5, "\(place)")
        await navigator.close()
    }

    @Test func aTrackWithNoAudioIsSkippedAsCorruptAndTheRestPlays() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["1000.mp3", "0.mp3", "300.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        await navigator.play()
        let all = await states.events(of: navigator, until: Self.isOver)
        let (warnings, errors) = Self.issues(all)
        #expect(warnings.map(\.code) == [.trackCorrupt] && warnings.first?.href == "0.mp3", "\(warnings)")
        #expect(warnings.first?.message.contains("no audio") == true)
        #expect(errors.isEmpty)
        #expect(all.compactMap(AudioNavigatorStateTests.state).last == .ended)
        #expect(sink.samples.withLock { $0.count } == 1300)
        await navigator.close()
    }

    @Test func aBookWithNoAudioAtAllFailsNamingTheFile() async throws {
        let navigator = try AudioNavigator(publication: TestBooks.publication(["0.mp3"]), components: TestBooks.components(sink: MemorySink()))
        await navigator.play()
        let all = await states.events(of: navigator, until: Self.isOver)
        #expect(all.compactMap(AudioNavigatorStateTests.state).last == .failed)
        let (_, errors) = Self.issues(all)
        #expect(errors.map(\.code) == [.noPlayableTrack] && errors.first?.message.contains("0.mp3") == true, "\(errors)")
        await navigator.close()
    }

    @Test func aLastTrackThatBreaksOffIsNotTheEndOfTheBook() async throws {
        let sink = MemorySink()
        let publication = TestBooks.publication(["1000.mp3", "800-corrupt200.mp3"])
        let navigator = try AudioNavigator(publication: publication, components: TestBooks.components(sink: sink))
        await navigator.play()
        let all = await states.events(of: navigator, until: Self.isOver)
        #expect(all.compactMap(AudioNavigatorStateTests.state) == [.loading, .playing, .failed])
        let (_, errors) = Self.issues(all)
        #expect(errors.map(\.code) == [.trackCorrupt] && errors.first?.message.contains("not heard") == true, "\(errors)")
        #expect(sink.samples.withLock { $0.count } == 1200)
        await navigator.close()
    }

    @Test func aResumedNavigatorAnnouncesTheResumedPlaceFirst() async throws {
        let navigator = try AudioNavigator(publication: TestBooks.publication(["1000.mp3", "2000.mp3"]), components: TestBooks.components(sink: MemorySink()))
        try await navigator.go(to: Locator(href: "2000.mp3", type: "audio/mpeg", locations: .init(fragments: ["t=1.5"])))
        await navigator.play()
        let all = await states.events(of: navigator) { $0.contains { AudioNavigatorStateTests.state($0) == .playing } }
        let located = all.compactMap { event -> Locator? in
            switch event {
            case .stateChanged(_, let locator), .trackChanged(_, _, let locator), .position(let locator): locator
            default: nil
            }
        }
        #expect(!located.isEmpty && located.allSatisfy { $0.href == "2000.mp3" && ($0.locations.time?.begin ?? 0) >= 1.5 }, "\(located)")
        await navigator.close()
    }
}
