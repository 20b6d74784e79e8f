// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What a `MediaOverlayNavigator` tells its listeners, in order, on `events`.
///
/// Every position has two locators: `locator`, the text being read (the `par`'s element), and
/// `audioLocator`, where in the narration's audio (nil for text-to-speech).
public enum MediaOverlayNavigatorEvent: Sendable {
    case stateChanged(PlaybackState, locator: Locator, audioLocator: Locator?)
    /// Every `positionInterval` of media time while playing.
    case position(locator: Locator, audioLocator: Locator?)
    /// A new item is being heard: a `par` (`item.isNarration`) or a text-to-speech passage.
    case utterance(NarrationItem, locator: Locator, audioLocator: Locator?)
    case warning(NavigatorIssue)
    case error(NavigatorIssue)
}

/// Where the narration starts: an item and seconds into it.
struct NarrationTarget: Sendable, Hashable {
    var item: Int
    var seconds: Double = 0
}
