// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A problem met while playing: a stable code, a message naming the href or file, and the error it
/// came from.
public struct NavigatorIssue: Sendable {
    /// What kind of problem this is; its raw value is the code clients read (`docs/events.md`).
    public var code: Code
    /// Names the href/file.
    public var message: String
    public var href: String?
    public var fatal: Bool
    public var locator: Locator?
    /// The error behind this issue (an `AudioDecoderError`, a `ResourceError`, a `TTSError`, an
    /// `AudioSinkError`...), when one was thrown; nil for a problem the navigator found itself (the
    /// end of a book not heard, a clip clamped).
    public var cause: (any Error)?

    public init(code: Code, message: String, href: String? = nil, fatal: Bool, locator: Locator? = nil,
                cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.href = href
        self.fatal = fatal
        self.locator = locator
        self.cause = cause
    }
}
