// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a navigator cannot be made or cannot go somewhere; the message names the href or publication.
public typealias AudioNavigatorError = RAudioError<AudioNavigatorErrorCode>

/// The category of an `AudioNavigatorError`.
public enum AudioNavigatorErrorCode: String, RAudioErrorCode {
    /// The publication is protected by LCP or another DRM.
    case protected = "protected"
    /// The reading order has no audio.
    case noAudio = "no-audio"
    /// A locator or link names a resource that is not in the reading order.
    case unknownHref = "unknown-href"
    /// A locator cannot be placed (for example a progression in a track of unknown duration).
    case badLocator = "bad-locator"
}
