// SPDX-License-Identifier: GPL-3.0-or-later
extension Manifest {
    static let knownKeys: Set<String> = [
        "@context", "metadata", "links", "readingOrder", "spine", "resources", "toc", "pageList", "landmarks",
    ]

    /// Why a manifest cannot be used at all.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file the manifest came from.
        public var source: String
        public var message: String
        public var description: String { "\(source): \(message)" }
    }

    /// Parses RWPM JSON text. Invalid JSON is an error naming line and column; a manifest without
    /// metadata or reading order is an error; everything else an author got wrong is a warning in `log`.
    public init(jsonData data: some Collection<UInt8>, source: String, log: WarningLog) throws(ParseError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw ParseError(source: source, message: "is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw ParseError(source: source, message: "is not a manifest: the top level is \(value.kindName), not an object")
        }
        try self.init(json: LenientJSONReader(object, source: source, log: log))
    }

    /// Parses a manifest object leniently (see `init(jsonData:source:log:)`).
    public init(json reader: LenientJSONReader) throws(ParseError) {
        guard let metadataReader = reader.child("metadata") else {
            throw ParseError(source: reader.source, message: "is not a Readium manifest: it has no \"metadata\" object")
        }
        var readingOrderKey = "readingOrder"
        if reader.object["readingOrder"] == nil, reader.object["spine"] != nil {
            reader.warn("spine", "\"spine\" is the old name of \"readingOrder\"; accepted")
            readingOrderKey = "spine"
        }
        guard reader.object[readingOrderKey] != nil else {
            throw ParseError(source: reader.source, message: "is not a Readium manifest: it has no \"readingOrder\"")
        }
        let readingOrder = Link.links(in: reader, key: readingOrderKey)
        guard !readingOrder.isEmpty else {
            throw ParseError(source: reader.source, message: "has an empty reading order: nothing to play or read")
        }
        self.init(
            context: reader.strings("@context"),
            metadata: Metadata(json: metadataReader),
            links: Link.links(in: reader, key: "links"),
            readingOrder: readingOrder,
            resources: Link.links(in: reader, key: "resources"),
            tableOfContents: Link.links(in: reader, key: "toc"),
            pageList: Link.links(in: reader, key: "pageList"),
            landmarks: Link.links(in: reader, key: "landmarks"),
            subcollections: reader.otherKeys(excluding: Manifest.knownKeys)
        )
    }

    /// The RWPM JSON of this manifest, keys in the order of the specification.
    public var json: JSONValue {
        var object = JSONObject()
        if !context.isEmpty {
            object["@context"] = context.count == 1 ? .string(context[0]) : .array(context.map(JSONValue.string))
        }
        object["metadata"] = metadata.json
        if !links.isEmpty { object["links"] = .array(links.map(\.json)) }
        object["readingOrder"] = .array(readingOrder.map(\.json))
        if !resources.isEmpty { object["resources"] = .array(resources.map(\.json)) }
        if !tableOfContents.isEmpty { object["toc"] = .array(tableOfContents.map(\.json)) }
        if !pageList.isEmpty { object["pageList"] = .array(pageList.map(\.json)) }
        if !landmarks.isEmpty { object["landmarks"] = .array(landmarks.map(\.json)) }
        for (key, value) in subcollections { object[key] = value }
        return .object(object)
    }
}
