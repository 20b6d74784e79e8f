// SPDX-License-Identifier: GPL-3.0-or-later
/// A person or organization who contributed to a publication (author, narrator, publisher...).
public struct Contributor: Sendable, Hashable {
    public var name: LocalizedString
    public var sortAs: String?
    public var identifier: String?
    /// Roles beyond the key the contributor is listed under (MARC relator codes, for example `nrt`).
    public var roles: [String]
    /// Position in a series (for `belongsTo` entries).
    public var position: Double?
    public var links: [Link]
    public var otherProperties: JSONObject

    public init(
        name: LocalizedString, sortAs: String? = nil, identifier: String? = nil, roles: [String] = [],
        position: Double? = nil, links: [Link] = [], otherProperties: JSONObject = JSONObject()
    ) {
        self.name = name
        self.sortAs = sortAs
        self.identifier = identifier
        self.roles = roles
        self.position = position
        self.links = links
        self.otherProperties = otherProperties
    }

    /// Parses the contributors under `key`: a string, an object, or an array of either.
    public static func parseList(_ reader: LenientJSONReader, key: String) -> [Contributor] {
        guard let value = reader.object[key], value != .null else { return [] }
        let items: [(JSONValue, String)]
        switch value {
        case .array(let values): items = values.enumerated().map { ($1, "\(key)[\($0)]") }
        default: items = [(value, key)]
        }
        return items.compactMap { item, path in
            switch item {
            case .string(let name): return Contributor(name: .plain(name))
            case .object(let object):
                let child = LenientJSONReader(object, source: reader.source, path: reader.path(of: path), log: reader.log)
                guard let name = LocalizedString.parse(child, key: "name") else {
                    child.warn(nil, "contributor without a name; ignored")
                    return nil
                }
                return Contributor(
                    name: name,
                    sortAs: child.string("sortAs"),
                    identifier: child.string("identifier"),
                    roles: child.strings("role"),
                    position: child.double("position"),
                    links: Link.links(in: child, key: "links"),
                    otherProperties: child.otherKeys(excluding: ["name", "sortAs", "identifier", "role", "position", "links"])
                )
            default:
                reader.warn(path, "expected a contributor (string or object), found \(item.kindName); ignored")
                return nil
            }
        }
    }

    /// A plain string when the contributor has only a plain name, else an object.
    public var json: JSONValue {
        if case .plain(let plainName) = name, sortAs == nil, identifier == nil, roles.isEmpty, position == nil,
            links.isEmpty, otherProperties.isEmpty
        {
            return .string(plainName)
        }
        var object = JSONObject()
        object["name"] = name.json
        if let sortAs { object["sortAs"] = .string(sortAs) }
        if let identifier { object["identifier"] = .string(identifier) }
        if !roles.isEmpty { object["role"] = roles.count == 1 ? .string(roles[0]) : .array(roles.map(JSONValue.string)) }
        if let position { object["position"] = .number(of: position) }
        if !links.isEmpty { object["links"] = .array(links.map(\.json)) }
        for (key, value) in otherProperties { object[key] = value }
        return .object(object)
    }
}
