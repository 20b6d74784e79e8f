// SPDX-License-Identifier: GPL-3.0-or-later
/// A precise position in a publication, as defined by the Readium Locator model.
///
/// Every state change of a navigator carries one, so a visual reader can follow what is heard: an
/// audiobook locator has a `t=` fragment (seconds into the track), a text locator a CSS selector and
/// the text around the position.
public struct Locator: Sendable, Hashable {
    /// The resource, relative to the manifest.
    public var href: String
    /// The media type of the resource.
    public var type: String
    /// The table-of-contents title of the part that contains the position.
    public var title: String?
    public var locations: Locations
    public var text: Text
    /// Keys outside the Locator model, kept for the round trip.
    public var otherProperties: JSONObject

    public init(
        href: String, type: String, title: String? = nil, locations: Locations = Locations(), text: Text = Text(),
        otherProperties: JSONObject = JSONObject()
    ) {
        self.href = href
        self.type = type
        self.title = title
        self.locations = locations
        self.text = text
        self.otherProperties = otherProperties
    }

    /// Where in the resource the locator points.
    public struct Locations: Sendable, Hashable {
        /// Fragment identifiers such as `t=30.5` (media) or `id` (HTML).
        public var fragments: [String]
        /// Progression in the resource, from 0 to 1.
        public var progression: Double?
        /// Progression in the whole publication, from 0 to 1.
        public var totalProgression: Double?
        /// Index in the publication's positions, from 1.
        public var position: Int?
        /// Other keys, for example `cssSelector`, kept as written.
        public var otherLocations: JSONObject

        public init(
            fragments: [String] = [], progression: Double? = nil, totalProgression: Double? = nil,
            position: Int? = nil, otherLocations: JSONObject = JSONObject()
        ) {
            self.fragments = fragments
            self.progression = progression
            self.totalProgression = totalProgression
            self.position = position
            self.otherLocations = otherLocations
        }

        /// The CSS selector of the element, as Readium writes it (`locations.cssSelector`).
        public var cssSelector: String? {
            get { otherLocations["cssSelector"]?.stringValue }
            set { otherLocations["cssSelector"] = newValue.map(JSONValue.string) }
        }

        /// The media fragment (`t=`) among `fragments`, parsed.
        public var time: MediaFragment? {
            fragments.lazy.compactMap(MediaFragment.init(parsing:)).first
        }

        public var isEmpty: Bool {
            fragments.isEmpty && progression == nil && totalProgression == nil && position == nil
                && otherLocations.isEmpty
        }
    }

    /// The text at and around the position.
    public struct Text: Sendable, Hashable {
        public var before: String?
        public var highlight: String?
        public var after: String?

        public init(before: String? = nil, highlight: String? = nil, after: String? = nil) {
            self.before = before
            self.highlight = highlight
            self.after = after
        }

        public var isEmpty: Bool { before == nil && highlight == nil && after == nil }
    }

    /// A copy with other locations.
    public func copy(title: String?? = nil, locations transform: (inout Locations) -> Void = { _ in }) -> Locator {
        var copy = self
        if let title { copy.title = title }
        transform(&copy.locations)
        return copy
    }
}
