// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// An LCP licence document (`.lcpl`, `META-INF/license.lcpl`, `license.lcpl`): Readium's `LicenseDocument`.
///
/// Decodes the 1.0 form (`links` an array) and the pre-1.0 one (`links` an object keyed by rel, as in the
/// Moby-Dick vector of 2015). `canonicalBytes` are what the signature covers; `jsonData` the bytes as read.
public struct LicenseDocument: Sendable, Codable, Equatable {
    public var id: String
    public var issued: Date
    public var updated: Date?
    public var provider: String
    public var encryption: Encryption
    public var links: [Link]
    public var user: User
    public var rights: Rights
    public var signature: Signature

    /// The licence's text as read, for a client's `createContext(jsonLicense:)` and for writing it back.
    public private(set) var jsonData: Data = Data()

    /// When the licence last changed: `updated`, else `issued`. The certificate must be valid then (not now).
    public var signatureDate: Date { updated ?? issued }

    public var jsonString: String { String(decoding: jsonData, as: UTF8.self) }

    /// The canonical form of the licence (without `signature`) that the signature covers.
    public var canonicalBytes: [UInt8] {
        (try? JSONParser.parse(jsonData)).map(CanonicalJSON.licenseBytes(of:)) ?? []
    }

    /// The first link with `rel`.
    public func link(_ rel: String) -> Link? { links.first { $0.rels.contains(rel) } }

    /// Parses a licence; the error names `source` (a path or an href).
    public init(data: Data, source: String = "the licence") throws(LCPError) {
        do {
            _ = try JSONParser.parse(data)
        } catch {
            throw .parsing(.malformedJSON("\(source): \(error)"))
        }
        do {
            self = try JSONDecoder().decode(LicenseDocument.self, from: data)
        } catch let error as DecodingError {
            throw .parsing(.licenseDocument("\(source): \(Self.describe(error))"))
        } catch {
            throw .parsing(.licenseDocument("\(source): \(error)"))
        }
        jsonData = data
    }

    enum CodingKeys: String, CodingKey {
        case id, issued, updated, provider, encryption, links, user, rights, signature
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        issued = try container.decodeLCPDate(forKey: .issued)
        updated = try container.decodeLCPDateIfPresent(forKey: .updated)
        provider = try container.decode(String.self, forKey: .provider)
        encryption = try container.decode(Encryption.self, forKey: .encryption)
        if let array = try? container.decodeIfPresent([Link].self, forKey: .links) {
            links = array
        } else if let byRel = try? container.decodeIfPresent([String: Link].self, forKey: .links) {
            // Pre-1.0 licences: { "hint": { "href": ... }, "publication": { ... } }.
            links = byRel.sorted { $0.key < $1.key }.map { rel, link in
                var link = link
                if link.rels.isEmpty { link.rels = [rel] }
                return link
            }
        } else if container.contains(.links) {
            throw DecodingError.dataCorruptedError(
                forKey: .links, in: container, debugDescription: "links is neither an array nor an object of links")
        } else {
            links = []
        }
        user = try container.decodeIfPresent(User.self, forKey: .user) ?? User()
        rights = try container.decodeIfPresent(Rights.self, forKey: .rights) ?? Rights()
        signature = try container.decode(Signature.self, forKey: .signature)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(LCPDate.format(issued), forKey: .issued)
        try container.encodeIfPresent(updated.map(LCPDate.format), forKey: .updated)
        try container.encode(provider, forKey: .provider)
        try container.encode(encryption, forKey: .encryption)
        try container.encode(links, forKey: .links)
        try container.encode(user, forKey: .user)
        try container.encode(rights, forKey: .rights)
        try container.encode(signature, forKey: .signature)
    }

    public static func == (lhs: LicenseDocument, rhs: LicenseDocument) -> Bool {
        lhs.jsonData == rhs.jsonData && lhs.id == rhs.id && lhs.signatureDate == rhs.signatureDate
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let prefix = path(context)
            return "missing \(prefix.isEmpty ? "" : prefix + ".")\(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension KeyedDecodingContainer {
    func decodeLCPDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = LCPDate.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a date: \(text)")
        }
        return date
    }

    func decodeLCPDateIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = LCPDate.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a date: \(text)")
        }
        return date
    }
}
