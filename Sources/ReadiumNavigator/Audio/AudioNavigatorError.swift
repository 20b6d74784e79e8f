// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a navigator cannot be made or cannot go somewhere.
public struct AudioNavigatorError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The publication is protected by LCP or another DRM.
        case protected = "protected"
        /// The reading order has no audio.
        case noAudio = "no-audio"
        /// A locator or link names a resource that is not in the reading order.
        case unknownHref = "unknown-href"
        /// A locator cannot be placed (for example a progression in a track of unknown duration).
        case badLocator = "bad-locator"
    }

    public var code: Code
    /// For a person, naming the href or publication.
    public var message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
