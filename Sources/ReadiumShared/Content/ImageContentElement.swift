// SPDX-License-Identifier: GPL-3.0-or-later
/// An image of the content (`img`, SVG `image`), with the text that describes it.
public struct ImageContentElement: ContentElement, Hashable {
    public var locator: Locator
    /// The image resource, its href resolved relative to the publication's root.
    public var embeddedLink: Link
    /// The `alt` text, nil when absent (an empty `alt` marks a decorative image and is kept empty).
    public var accessibilityLabel: String?
    /// The `figcaption` of the enclosing `figure`, if any.
    public var caption: String?

    public init(locator: Locator, embeddedLink: Link, accessibilityLabel: String?, caption: String?) {
        self.locator = locator
        self.embeddedLink = embeddedLink
        self.accessibilityLabel = accessibilityLabel
        self.caption = caption
    }

    public var role: ContentRole { .image }

    /// The alt text, else nil: a caption is read as its own `caption` element.
    public var spokenText: String? {
        accessibilityLabel.flatMap { $0.isEmpty ? nil : $0 }
    }
}
