// SPDX-License-Identifier: GPL-3.0-or-later
/// One semantic element of a publication's content, with the Locator that points at it.
///
/// Implemented by `TextContentElement`, `ImageContentElement`, `AudioContentElement` and
/// `VideoContentElement`. Values: safe to pass between threads.
public protocol ContentElement: Sendable {
    /// Where the element is: href, type, progressions, `cssSelector` and its text with context.
    var locator: Locator { get }
    var role: ContentRole { get }
    /// What a reader aloud would say for this element: its text, or an image's alt text; nil when none.
    var spokenText: String? { get }
}

extension ContentElement {
    /// Whether `other` is the same element at the same place (same kind, role, locator and text).
    public func isSame(as other: any ContentElement) -> Bool {
        type(of: self) == type(of: other) && role == other.role && locator == other.locator && spokenText == other.spokenText
    }
}
