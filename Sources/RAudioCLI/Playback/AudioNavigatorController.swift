// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// `raudio play`'s controller: an `AudioNavigator` behind `PlaybackController`.
struct AudioNavigatorController: RecordingNavigatorController {
    let navigator: AudioNavigator
    let events: AsyncStream<SessionEvent>

    init(navigator: AudioNavigator) {
        self.navigator = navigator
        events = navigator.events.mapped { event in
            switch event {
            case .stateChanged(let state, let locator): .stateChanged(state, locator)
            case .position(let locator): .position(locator)
            case .trackChanged(let index, let link, let locator): .track(index: index, link: link, locator: locator)
            case .warning(let issue): .warning(issue)
            case .error(let issue): .error(issue)
            }
        }
    }

    func performMove(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .seek(.absolute(let seconds)): await navigator.seek(to: seconds)
        case .seek(.relative(let seconds)): await navigator.seek(by: seconds)
        case .forward: await navigator.skipForward()
        case .back: await navigator.skipBackward()
        case .next: await navigator.goForward()
        case .previous: await navigator.goBackward()
        case .voice, .pitch:
            throw .unsupported(command, "an audiobook has no voice to change; voice and pitch are commands of raudio speak")
        case .escape:
            throw .unsupported(command, "escape leaves a table, list or note of a book with media overlays")
        case .play, .pause, .toggle, .go, .speed, .volume, .stop, .quit, .status, .bookmark, .bookmarks, .goToBookmark, .sleep, .chapter, .toc:
            break // RecordingNavigatorController.perform does these.
        }
    }
}
