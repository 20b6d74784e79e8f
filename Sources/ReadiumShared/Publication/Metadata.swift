// SPDX-License-Identifier: GPL-3.0-or-later
/// What a publication is: title, contributors, languages, duration... (RWPM `metadata`).
public struct Metadata: Sendable, Hashable {
    /// The contributor roles RWPM lists as keys of `metadata`, in the order they are written out.
    public static let contributorRoles = [
        "author", "translator", "editor", "artist", "illustrator", "letterer", "penciler", "colorist", "inker",
        "narrator", "contributor", "publisher", "imprint",
    ]

    /// `@type`, for example `http://schema.org/Audiobook`.
    public var type: String?
    /// Profiles the publication conforms to, for example the audiobook profile.
    public var conformsTo: [String]
    public var identifier: String?
    public var title: LocalizedString?
    public var subtitle: LocalizedString?
    public var sortAs: String?
    /// ISO 8601 date of the last modification, as written.
    public var modified: String?
    /// ISO 8601 date of publication, as written.
    public var published: String?
    /// BCP-47 tags, most important first.
    public var languages: [String]
    /// Contributors by RWPM role key (`author`, `narrator`, `publisher`, ...).
    public var contributors: [String: [Contributor]]
    /// `ltr`, `rtl`, `ttb`, `btt` or `auto`.
    public var readingProgression: String?
    public var description: String?
    /// Total length in seconds.
    public var duration: Double?
    public var numberOfPages: Int?
    /// `subject`, `belongsTo`, `accessibility` and every other key, kept as written.
    public var otherMetadata: JSONObject

    public init(
        type: String? = nil, conformsTo: [String] = [], identifier: String? = nil, title: LocalizedString? = nil,
        subtitle: LocalizedString? = nil, sortAs: String? = nil, modified: String? = nil, published: String? = nil,
        languages: [String] = [], contributors: [String: [Contributor]] = [:], readingProgression: String? = nil,
        description: String? = nil, duration: Double? = nil, numberOfPages: Int? = nil,
        otherMetadata: JSONObject = JSONObject()
    ) {
        self.type = type
        self.conformsTo = conformsTo
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.sortAs = sortAs
        self.modified = modified
        self.published = published
        self.languages = languages
        self.contributors = contributors
        self.readingProgression = readingProgression
        self.description = description
        self.duration = duration
        self.numberOfPages = numberOfPages
        self.otherMetadata = otherMetadata
    }

    public var authors: [Contributor] { contributors["author"] ?? [] }
    public var narrators: [Contributor] { contributors["narrator"] ?? [] }
    public var publishers: [Contributor] { contributors["publisher"] ?? [] }

    /// The first language, or nil.
    public var language: String? { languages.first }
}
