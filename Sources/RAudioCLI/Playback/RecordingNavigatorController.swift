// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// A `PlaybackController` over a `RecordingNavigator`: play, pause, toggle, go, speed, volume and the
/// session's own commands are done here; the controller does only the moves that differ.
protocol RecordingNavigatorController: PlaybackController {
    associatedtype Navigator: RecordingNavigator
    var navigator: Navigator { get }
    /// Performs `seek`, `forward`, `back`, `next`, `previous`, `escape`, `voice` or `pitch`; throws
    /// when the command does not apply to this navigator.
    func performMove(_ command: PlayerCommand) async throws(CommandRefusal)
}

extension RecordingNavigatorController {
    func play() async { await navigator.play() }
    func stop() async { await navigator.stop() }
    func close() async { await navigator.close() }

    func status() async -> (state: PlaybackState, locator: Locator?) {
        (await navigator.state, await navigator.currentLocation)
    }

    func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .play: await navigator.play()
        case .pause: await navigator.pause()
        case .toggle: await navigator.playPause()
        case .go(let data): try await CommandRefusal.go(to: data) { try await navigator.go(to: $0) }
        case .speed(let value): await navigator.setSpeed(value)
        case .volume(let value): await navigator.setVolume(value)
        case .seek, .forward, .back, .next, .previous, .escape, .voice, .pitch:
            try await performMove(command)
        case .stop, .quit, .status, .bookmark, .bookmarks, .goToBookmark, .sleep, .chapter, .toc:
            break // SessionLoop does these.
        }
    }
}
