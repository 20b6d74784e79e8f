// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A narration's skips move by `par`, like `goForward()`/`goBackward()`; `seek` moves in narration time.
extension MediaOverlayNavigator: Navigator {
    public var playbackState: PlaybackState { state }

    public var currentLocator: Locator? { currentLocation }

    public nonisolated func navigatorEvent(for event: MediaOverlayNavigatorEvent) -> NavigatorEvent {
        switch event {
        case .stateChanged(let state, let locator, let audio):
            .withAudioLocator(.stateChanged(state, locator), audioLocator: audio)
        case .position(let locator, let audio):
            .withAudioLocator(.position(locator), audioLocator: audio)
        case .utterance(let item, let locator, let audio):
            .withAudioLocator(.narration(text: item.spokenText ?? locator.text.highlight ?? "",
                                         language: item.language?.code ?? plan.defaultLanguage?.code, locator: locator),
                              audioLocator: audio)
        case .warning(let issue): .warning(issue)
        case .error(let issue): .error(issue)
        }
    }

    /// The next `par`.
    public func skipForward() async { await goForward() }

    /// The previous `par`.
    public func skipBackward() { goBackward() }
}
