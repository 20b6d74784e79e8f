// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// `raudio play`'s controller for a book with media overlays: a `MediaOverlayNavigator` behind
/// `PlaybackController`.
///
/// `next`/`previous` (and `forward`/`back`) move by `par`; `escape` leaves the current table, list or
/// note; `seek` moves in narration time (the recorded clips back to back), refused when the narration
/// is all text-to-speech.
struct NarrationController: RecordingNavigatorController {
    let navigator: MediaOverlayNavigator
    let events: AsyncStream<SessionEvent>

    init(navigator: MediaOverlayNavigator) {
        self.navigator = navigator
        let defaultLanguage = navigator.plan.defaultLanguage?.code
        events = navigator.events.mapped { event in
            switch event {
            case .stateChanged(let state, let locator, let audio): .withAudioLocator(.stateChanged(state, locator), audioLocator: audio)
            case .position(let locator, let audio): .withAudioLocator(.position(locator), audioLocator: audio)
            case .utterance(let item, let locator, let audio):
                .withAudioLocator(.narration(text: item.spokenText ?? locator.text.highlight ?? "", language: item.language?.code ?? defaultLanguage, locator: locator), audioLocator: audio)
            case .warning(let issue): .warning(issue)
            case .error(let issue): .error(issue)
            }
        }
    }

    func performMove(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .next, .forward: await navigator.goForward()
        case .previous, .back: await navigator.goBackward()
        case .escape:
            guard await navigator.escape() else {
                throw CommandRefusal(code: "command-unsupported", message: "escape: the text being read is not in a table, list, note or other escapable structure")
            }
        case .seek(let target):
            let moved = switch target {
            case .absolute(let seconds): await navigator.seek(to: seconds)
            case .relative(let seconds): await navigator.seek(by: seconds)
            }
            guard moved else {
                throw .unsupported(command, "this narration is read with text-to-speech and has no timeline; use next, previous, escape or go <locator>")
            }
        case .voice, .pitch:
            throw .unsupported(command, "the narration is a recording; voice and pitch are commands of raudio speak")
        case .play, .pause, .toggle, .go, .speed, .volume, .stop, .quit, .status, .bookmark, .bookmarks, .goToBookmark, .sleep, .chapter, .toc:
            break // RecordingNavigatorController.perform does these.
        }
    }
}
