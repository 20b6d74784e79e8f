// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// The MPRIS mapping without a bus: which track is heard, `Position` between events, when `Seeked`
/// goes out, and the commands the methods become (the sample book's timings: 61.73 s, entries at 0,
/// 15.26, 24.465, 36.165 s...).
@Suite struct MPRISStateTests {
    static let duration = 61.73

    static func state(mode: PlayerStatus.Mode = .audiobook) -> MPRISState {
        var status = PlayerStatus(mode: mode)
        status.chapters = [("Chapter 1: The Storm", 0), ("The lamp goes out", 15.26), ("Chapter 2: The Ship", 24.465), ("The light on the water", 36.165)]
            .map { PlayerStatus.Chapter(title: $0.0, start: mode == .audiobook ? $0.1 : nil) }
        var state = MPRISState(status: status)
        var opened = OpenedPublication(Publication(manifest: Manifest(metadata: Metadata(title: .plain("The Last Lamp of Gull Rock")), readingOrder: []),
                                                   container: SessionBooks.EmptyContainer(), mediaType: .readiumAudiobook), duration: nil)
        opened.authors = ["The raudio project"]
        opened.duration = mode == .audiobook ? 61.73 : nil
        state.apply(.opened(opened), now: 0)
        return state
    }

    /// A `position` event (or, with `state`, a `state` event) at `seconds` of publication time.
    static func at(_ seconds: Double, state: PlaybackState? = nil) -> PlayerEvent {
        let locator = Locator(href: "01-the-storm.mp3", type: "audio/mpeg", locations: .init(fragments: ["t=\(seconds)"], totalProgression: seconds / duration))
        return state.map { .state($0, locator: locator) } ?? .position(locator)
    }

    @Test func theTrackIsTheTimedEntryHeardAndPositionCountsWithinIt() {
        var state = Self.state()
        state.apply(Self.at(17, state: .playing), now: 100)
        #expect(state.track.id == "/org/mpris/MediaPlayer2/raudio/chapter/2")
        #expect(state.track.title == "The lamp goes out")
        #expect(abs((state.track.length ?? 0) - 9.205) < 1e-9)
        #expect(state.position(now: 100) == 1_740_000)
        // Between events, Position moves on with the clock at the current speed...
        #expect(state.position(now: 101.5) == 3_240_000)
        state.apply(.settings(PlayerSettings(speed: 2, volume: 1)), now: 101.5)
        // ...and stands still once paused.
        state.apply(Self.at(18, state: .paused), now: 102)
        #expect(state.position(now: 110) == 2_740_000)
        let properties = MPRISProperties.player(of: state)
        #expect(properties["PlaybackStatus"] == .string("Paused"))
        #expect(properties["Rate"] == .double(2))
        #expect(properties["Position"] == nil, "Position is never published")
        guard case .dictionary(let metadata)? = properties["Metadata"] else { Issue.record("no Metadata"); return }
        #expect(metadata["mpris:length"] == .int64(9_205_000))
        #expect(metadata["xesam:album"] == .string("The Last Lamp of Gull Rock"))
        #expect(metadata["xesam:artist"] == .strings(["The raudio project"]))
    }

    @Test func seekedFollowsAJumpWithThePositionAfterIt() {
        var state = Self.state()
        state.apply(Self.at(2, state: .playing), now: 10)
        _ = state.takeChanges()
        state.apply(.ack(.seek(.relative(seconds: 8)), id: nil), now: 10.1)
        // The `loading` state right after a jump still says where the reading was.
        state.apply(Self.at(2.1, state: .loading), now: 10.1)
        #expect(state.takeChanges().seeked == nil)
        state.apply(Self.at(10, state: .playing), now: 10.2)
        #expect(state.takeChanges().seeked == 10_000_000)
        state.apply(Self.at(10.2), now: 10.4)
        #expect(state.takeChanges().seeked == nil, "once per jump")
    }

    @Test func aPositionThatJumpsWithoutACommandIsSeeked() {
        var state = Self.state()
        state.apply(Self.at(12, state: .playing), now: 10)
        state.apply(Self.at(12.5), now: 10.5)
        #expect(state.takeChanges().seeked == nil, "steady playing")
        // Back 5 s, as when playback resumes where it was last heard after the audio server came back.
        state.apply(Self.at(7.5), now: 11)
        #expect(state.takeChanges().seeked == 7_500_000)
    }

    @Test func onlyWhatChangedIsPublished() {
        var state = Self.state()
        state.apply(Self.at(2, state: .playing), now: 10)
        _ = state.takeChanges()
        state.apply(Self.at(2.5), now: 10.5)
        #expect(state.takeChanges().changed.isEmpty, "a position event changes no published property")
        state.apply(.settings(PlayerSettings(speed: 1, volume: 0.5)), now: 10.6)
        #expect(state.takeChanges().changed == ["Volume": .double(0.5)])
        state.apply(Self.at(16), now: 11)
        #expect(Set(state.takeChanges().changed.keys) == ["Metadata"], "a new chapter is a new track")
    }

    @Test func methodsBecomeCommandsWithinTheTrack() {
        var state = Self.state()
        state.apply(Self.at(17, state: .paused), now: 10)
        #expect(MPRISCommands.seek(by: 5_000_000, state: state, now: 10) == .seek(.relative(seconds: 5)))
        #expect(MPRISCommands.seek(by: -1_500_000, state: state, now: 10) == .seek(.relative(seconds: -1.5)))
        #expect(MPRISCommands.seek(by: -10_000_000, state: state, now: 10) == .seek(.absolute(seconds: 15.26)), "before the track's start: its start")
        #expect(MPRISCommands.seek(by: 20_000_000, state: state, now: 10) == .chapter(.next), "past its end: Next")
        let track = state.track.id
        #expect(MPRISCommands.setPosition(trackID: track, microseconds: 4_000_000, state: state) == .seek(.absolute(seconds: 19.26)))
        #expect(MPRISCommands.setPosition(trackID: MPRISTrack.id(ofChapter: 0), microseconds: 4_000_000, state: state) == nil, "not the current track")
        #expect(MPRISCommands.setPosition(trackID: track, microseconds: 10_000_000, state: state) == nil, "past the track's end")
        #expect(MPRISCommands.setPosition(trackID: track, microseconds: -1, state: state) == nil)
        #expect(MPRISCommands.next(state.status) == .chapter(.next) && MPRISCommands.previous(state.status) == .chapter(.previous))
        #expect(MPRISCommands.rate(0) == .pause && MPRISCommands.rate(9) == .speed(3) && MPRISCommands.rate(1.25) == .speed(1.25))
        #expect(MPRISCommands.volume(-1) == .volume(0) && MPRISCommands.volume(5) == .volume(2))
    }

    @Test func speechCannotSeekAndMovesByUtteranceWithoutChapters() {
        var state = Self.state(mode: .speech)
        state.apply(.chapter(ChapterMap.Entry(title: "The lamp goes out", href: "c2.xhtml", depth: 0, readingOrderIndex: 1, start: nil, locator: SessionBooks.text("c2.xhtml", 0)), index: 1, locator: SessionBooks.text("c2.xhtml", 0)), now: 1)
        #expect(state.track.id == "/org/mpris/MediaPlayer2/raudio/chapter/2")
        #expect(state.track.length == nil)
        #expect(MPRISProperties.player(of: state)["CanSeek"] == .boolean(false))
        #expect(MPRISCommands.seek(by: 5_000_000, state: state, now: 1) == nil)
        state.status.chapters = []
        #expect(MPRISCommands.next(state.status) == .next && MPRISCommands.previous(state.status) == .previous)
    }
}
