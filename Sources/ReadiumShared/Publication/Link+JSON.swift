// SPDX-License-Identifier: GPL-3.0-or-later
extension Link {
    static let knownKeys: Set<String> = [
        "href", "templated", "type", "title", "rel", "properties", "height", "width", "size", "duration", "bitrate",
        "language", "alternate", "children",
    ]

    /// Parses a link leniently; nil (with a warning) when it has no usable href.
    public init?(json reader: LenientJSONReader) {
        guard let href = reader.string("href"), !href.isEmpty else {
            reader.warn(nil, "link without an href; ignored")
            return nil
        }
        self.init(
            href: href,
            templated: reader.bool("templated") ?? false,
            type: reader.string("type"),
            title: reader.string("title"),
            rels: reader.strings("rel"),
            properties: reader.child("properties")?.object ?? JSONObject(),
            height: reader.positiveInteger("height"),
            width: reader.positiveInteger("width"),
            size: reader.positiveInteger("size"),
            duration: reader.positiveDouble("duration"),
            bitrate: reader.positiveDouble("bitrate"),
            languages: reader.strings("language"),
            alternates: Link.links(in: reader, key: "alternate"),
            children: Link.links(in: reader, key: "children"),
            otherProperties: reader.otherKeys(excluding: Link.knownKeys)
        )
    }

    /// The links in the array under `key` of `reader` (a single object is accepted with no warning).
    public static func links(in reader: LenientJSONReader, key: String) -> [Link] {
        reader.objects(key).compactMap(Link.init(json:))
    }

    /// The RWPM JSON of this link, keys in the order of the specification.
    public var json: JSONValue {
        var object = JSONObject()
        object["href"] = .string(href)
        if templated { object["templated"] = true }
        if let type { object["type"] = .string(type) }
        if let title { object["title"] = .string(title) }
        if !rels.isEmpty { object["rel"] = rels.count == 1 ? .string(rels[0]) : .array(rels.map(JSONValue.string)) }
        if !properties.isEmpty { object["properties"] = .object(properties) }
        if let height { object["height"] = .integer(Int64(height)) }
        if let width { object["width"] = .integer(Int64(width)) }
        if let size { object["size"] = .integer(Int64(size)) }
        if let duration { object["duration"] = .number(of: duration) }
        if let bitrate { object["bitrate"] = .number(of: bitrate) }
        if !languages.isEmpty {
            object["language"] = languages.count == 1 ? .string(languages[0]) : .array(languages.map(JSONValue.string))
        }
        if !alternates.isEmpty { object["alternate"] = .array(alternates.map(\.json)) }
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        for (key, value) in otherProperties { object[key] = value }
        return .object(object)
    }
}
