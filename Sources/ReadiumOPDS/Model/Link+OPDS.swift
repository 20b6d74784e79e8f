// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A step of an indirect acquisition: what the link's resource is followed by, down to the book's own type
/// (an Adobe ADEPT token, then an EPUB). OPDS 2 `properties.indirectAcquisition`, OPDS 1
/// `opds:indirectAcquisition`.
public struct OPDSAcquisition: Sendable, Hashable {
    public var type: String
    public var children: [OPDSAcquisition]

    public init(type: String, children: [OPDSAcquisition] = []) {
        self.type = type
        self.children = children
    }

    /// The chains of types from this step to each leaf.
    public var chains: [[String]] {
        children.isEmpty ? [[type]] : children.flatMap { child in child.chains.map { [type] + $0 } }
    }

    public var json: JSONValue {
        var object: JSONObject = ["type": .string(type)]
        if !children.isEmpty { object["child"] = .array(children.map(\.json)) }
        return .object(object)
    }

    init?(json value: JSONValue) {
        guard let object = value.objectValue, let type = object["type"]?.stringValue else { return nil }
        let children = object["child"].map { $0.arrayValue ?? [$0] } ?? []
        self.init(type: type, children: children.compactMap(OPDSAcquisition.init(json:)))
    }
}

/// Whether a publication can be had now (OPDS `availability`).
public struct OPDSAvailability: Sendable, Hashable {
    /// `available`, `unavailable`, `reserved` or `ready` (any other word is kept as written).
    public var state: String
    public var since: String?
    public var until: String?

    public init(state: String, since: String? = nil, until: String? = nil) {
        self.state = state
        self.since = since
        self.until = until
    }

    public var json: JSONValue {
        var object: JSONObject = ["state": .string(state)]
        if let since { object["since"] = .string(since) }
        if let until { object["until"] = .string(until) }
        return .object(object)
    }
}

/// The holds on a library's copies: how many, and the listener's place among them.
public struct OPDSHolds: Sendable, Hashable {
    public var total: Int?
    public var position: Int?

    public init(total: Int? = nil, position: Int? = nil) {
        self.total = total
        self.position = position
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let total { object["total"] = .integer(Int64(total)) }
        if let position { object["position"] = .integer(Int64(position)) }
        return .object(object)
    }
}

/// A library's copies of a publication: how many, and how many are free.
public struct OPDSCopies: Sendable, Hashable {
    public var total: Int?
    public var available: Int?

    public init(total: Int? = nil, available: Int? = nil) {
        self.total = total
        self.available = available
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let total { object["total"] = .integer(Int64(total)) }
        if let available { object["available"] = .integer(Int64(available)) }
        return .object(object)
    }
}

/// The price of an acquisition.
public struct OPDSPrice: Sendable, Hashable {
    /// ISO 4217 code (`USD`).
    public var currency: String
    public var value: Double

    public init(currency: String, value: Double) {
        self.currency = currency
        self.value = value
    }

    public var json: JSONValue { .object(["currency": .string(currency), "value": .number(of: value)]) }
}

extension Link {
    /// Whether the link acquires a publication (`http://opds-spec.org/acquisition` or one of its sub-relations).
    public var isAcquisition: Bool { rels.contains { OPDSRel.acquisitionKind($0) != nil } }

    /// How the link acquires (`open-access`, `borrow`, `buy`, `sample`, `subscribe`, `acquisition`), or nil.
    public var acquisitionKind: String? { rels.lazy.compactMap(OPDSRel.acquisitionKind).first }

    /// The indirect acquisition chains of the link's resource (`properties.indirectAcquisition`).
    public var indirectAcquisitions: [OPDSAcquisition] {
        guard let value = properties["indirectAcquisition"] else { return [] }
        return (value.arrayValue ?? [value]).compactMap(OPDSAcquisition.init(json:))
    }

    /// Each way the acquisition goes, as the types from the link's own (when it has one) to the book's.
    public var acquisitionChains: [[String]] {
        let chains = indirectAcquisitions.flatMap(\.chains)
        guard let type else { return chains }
        return chains.isEmpty ? [[type]] : chains.map { [type] + $0 }
    }

    /// The types the acquisition ends in: the leaves of its chains, else its own type.
    public var acquisitionMediaTypes: [String] {
        acquisitionChains.compactMap(\.last)
    }

    public var availability: OPDSAvailability? {
        guard let object = properties["availability"]?.objectValue, let state = object["state"]?.stringValue else { return nil }
        return OPDSAvailability(state: state, since: object["since"]?.stringValue, until: object["until"]?.stringValue)
    }

    public var holds: OPDSHolds? {
        properties["holds"]?.objectValue.map { OPDSHolds(total: $0["total"]?.intValue, position: $0["position"]?.intValue) }
    }

    public var copies: OPDSCopies? {
        properties["copies"]?.objectValue.map { OPDSCopies(total: $0["total"]?.intValue, available: $0["available"]?.intValue) }
    }

    /// The price; OPDS 1 may give several (one per currency): see `prices`.
    public var price: OPDSPrice? { prices.first }

    /// Every price of the link (`properties.price`, an object or, from OPDS 1, an array of them).
    public var prices: [OPDSPrice] {
        guard let value = properties["price"] else { return [] }
        return (value.arrayValue ?? [value]).compactMap { item in
            guard let object = item.objectValue, let currency = object["currency"]?.stringValue,
                  let amount = object["value"]?.doubleValue else { return nil }
            return OPDSPrice(currency: currency, value: amount)
        }
    }

    /// How many items the linked feed has (`properties.numberOfItems`, OPDS 1 `thr:count`).
    public var numberOfItems: Int? { properties["numberOfItems"]?.intValue }

    /// The authentication document to use before following the link (`properties.authenticate`).
    public var authenticate: Link? {
        guard let object = properties["authenticate"]?.objectValue else { return nil }
        return Link(json: LenientJSONReader(object, source: href, log: WarningLog()))
    }
}
