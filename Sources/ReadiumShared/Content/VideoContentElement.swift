// SPDX-License-Identifier: GPL-3.0-or-later
/// A `video` element of the content, with its sources (the `src` attribute and `source` children).
public struct VideoContentElement: ContentElement, Hashable {
    public var locator: Locator
    /// The sources in document order, hrefs resolved relative to the publication's root.
    public var sources: [Link]

    public init(locator: Locator, sources: [Link]) {
        self.locator = locator
        self.sources = sources
    }

    public var role: ContentRole { .video }
    public var spokenText: String? { nil }
}
