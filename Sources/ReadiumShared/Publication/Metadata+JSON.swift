// SPDX-License-Identifier: GPL-3.0-or-later
extension Metadata {
    static let knownKeys: Set<String> = Set(contributorRoles).union([
        "@type", "conformsTo", "identifier", "title", "subtitle", "sortAs", "modified", "published", "language",
        "readingProgression", "description", "duration", "numberOfPages",
    ])

    /// Parses RWPM metadata leniently. A missing title is a warning (the schema requires one).
    public init(json reader: LenientJSONReader) {
        var contributors: [String: [Contributor]] = [:]
        for role in Metadata.contributorRoles {
            let list = Contributor.parseList(reader, key: role)
            if !list.isEmpty { contributors[role] = list }
        }
        let title = LocalizedString.parse(reader, key: "title")
        if title == nil { reader.warn("title", "the publication has no title") }
        var readingProgression = reader.string("readingProgression")
        if let progression = readingProgression, !["ltr", "rtl", "ttb", "btt", "auto"].contains(progression) {
            reader.warn("readingProgression", "unknown value \"\(progression)\"; ignored")
            readingProgression = nil
        }
        self.init(
            type: reader.string("@type"),
            conformsTo: reader.strings("conformsTo"),
            identifier: reader.string("identifier"),
            title: title,
            subtitle: LocalizedString.parse(reader, key: "subtitle"),
            sortAs: reader.string("sortAs"),
            modified: reader.string("modified"),
            published: reader.string("published"),
            languages: reader.strings("language"),
            contributors: contributors,
            readingProgression: readingProgression,
            description: reader.string("description"),
            duration: reader.positiveDouble("duration"),
            numberOfPages: reader.positiveInteger("numberOfPages"),
            otherMetadata: reader.otherKeys(excluding: Metadata.knownKeys)
        )
    }

    /// The RWPM JSON of this metadata.
    public var json: JSONValue {
        var object = JSONObject()
        if let type { object["@type"] = .string(type) }
        if !conformsTo.isEmpty {
            object["conformsTo"] = conformsTo.count == 1 ? .string(conformsTo[0]) : .array(conformsTo.map(JSONValue.string))
        }
        if let identifier { object["identifier"] = .string(identifier) }
        if let title { object["title"] = title.json }
        if let subtitle { object["subtitle"] = subtitle.json }
        if let sortAs { object["sortAs"] = .string(sortAs) }
        if let modified { object["modified"] = .string(modified) }
        if let published { object["published"] = .string(published) }
        if !languages.isEmpty {
            object["language"] = languages.count == 1 ? .string(languages[0]) : .array(languages.map(JSONValue.string))
        }
        for role in Metadata.contributorRoles {
            guard let list = contributors[role], !list.isEmpty else { continue }
            object[role] = list.count == 1 ? list[0].json : .array(list.map(\.json))
        }
        if let readingProgression { object["readingProgression"] = .string(readingProgression) }
        if let description { object["description"] = .string(description) }
        if let duration { object["duration"] = .number(of: duration) }
        if let numberOfPages { object["numberOfPages"] = .integer(Int64(numberOfPages)) }
        for (key, value) in otherMetadata { object[key] = value }
        return .object(object)
    }
}
