// SPDX-License-Identifier: GPL-3.0-or-later
extension Locator {
    /// Why a locator cannot be read.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Parses a Locator. `href` and `type` are required, as in the model; a progression outside 0...1 is
    /// clamped with a warning; a legacy `fragment` string is accepted as `fragments`.
    public init(json value: JSONValue, source: String = "locator", log: WarningLog = WarningLog()) throws(ParseError) {
        guard let object = value.objectValue else {
            throw ParseError(message: "a locator must be a JSON object, found \(value.kindName)")
        }
        let reader = LenientJSONReader(object, source: source, log: log)
        guard let href = reader.string("href"), !href.isEmpty else {
            throw ParseError(message: "a locator needs an \"href\"")
        }
        let type = reader.string("type")
        if type == nil { reader.warn("type", "a locator needs a \"type\"; left empty") }
        var locations = Locations()
        if let locationsReader = reader.child("locations") {
            locations = Locations(json: locationsReader)
        }
        var text = Text()
        if let textReader = reader.child("text") {
            text = Text(before: textReader.string("before"), highlight: textReader.string("highlight"), after: textReader.string("after"))
        }
        self.init(
            href: href, type: type ?? "", title: reader.string("title"), locations: locations, text: text,
            otherProperties: reader.otherKeys(excluding: ["href", "type", "title", "locations", "text"])
        )
    }

    /// Parses Locator JSON text.
    public init(jsonString: String, source: String = "locator", log: WarningLog = WarningLog()) throws(ParseError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(jsonString)
        } catch {
            throw ParseError(message: "the locator is not valid JSON: \(error)")
        }
        try self.init(json: value, source: source, log: log)
    }

    /// The Locator JSON, keys in the order of the model.
    public var json: JSONValue {
        var object = JSONObject()
        object["href"] = .string(href)
        object["type"] = .string(type)
        if let title { object["title"] = .string(title) }
        if !locations.isEmpty { object["locations"] = locations.json }
        if !text.isEmpty {
            var textObject = JSONObject()
            if let before = text.before { textObject["before"] = .string(before) }
            if let highlight = text.highlight { textObject["highlight"] = .string(highlight) }
            if let after = text.after { textObject["after"] = .string(after) }
            object["text"] = .object(textObject)
        }
        for (key, value) in otherProperties { object[key] = value }
        return .object(object)
    }
}

extension Locator.Locations {
    init(json reader: LenientJSONReader) {
        var fragments = reader.strings("fragments")
        if let legacy = reader.string("fragment") {
            reader.warn("fragment", "\"fragment\" is the legacy form of \"fragments\"; accepted")
            fragments.append(legacy)
        }
        self.init(
            fragments: fragments,
            progression: Self.unitInterval(reader, "progression"),
            totalProgression: Self.unitInterval(reader, "totalProgression"),
            position: reader.positiveInteger("position"),
            otherLocations: reader.otherKeys(excluding: ["fragments", "fragment", "progression", "totalProgression", "position"])
        )
    }

    private static func unitInterval(_ reader: LenientJSONReader, _ key: String) -> Double? {
        guard let value = reader.double(key) else { return nil }
        guard (0...1).contains(value) else {
            reader.warn(key, "must be between 0 and 1, found \(value); clamped")
            return min(max(value, 0), 1)
        }
        return value
    }

    var json: JSONValue {
        var object = JSONObject()
        if !fragments.isEmpty { object["fragments"] = .array(fragments.map(JSONValue.string)) }
        if let progression { object["progression"] = .number(of: progression) }
        if let totalProgression { object["totalProgression"] = .number(of: totalProgression) }
        if let position { object["position"] = .integer(Int64(position)) }
        for (key, value) in otherLocations { object[key] = value }
        return .object(object)
    }
}
