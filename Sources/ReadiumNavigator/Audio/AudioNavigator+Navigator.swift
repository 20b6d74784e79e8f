// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension AudioNavigator: Navigator {
    public var playbackState: PlaybackState { state }

    public var currentLocator: Locator? { currentLocation }

    public nonisolated func navigatorEvent(for event: AudioNavigatorEvent) -> NavigatorEvent {
        switch event {
        case .stateChanged(let state, let locator): .stateChanged(state, locator)
        case .position(let locator): .position(locator)
        case .trackChanged(let index, let link, let locator): .track(index: index, link: link, locator: locator)
        case .warning(let issue): .warning(issue)
        case .error(let issue): .error(issue)
        }
    }
}
