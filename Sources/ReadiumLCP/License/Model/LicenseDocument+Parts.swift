// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension LicenseDocument {
    /// `encryption`: the profile, the content key (encrypted with the user key) and how the user key is made.
    public struct Encryption: Sendable, Codable, Equatable {
        public var profile: String
        public var contentKey: ContentKey
        public var userKey: UserKey

        enum CodingKeys: String, CodingKey {
            case profile
            case contentKey = "content_key"
            case userKey = "user_key"
        }
    }

    /// `encryption.content_key`: the publication's AES-256 key, as IV + AES-256-CBC under the user key, Base64.
    public struct ContentKey: Sendable, Codable, Equatable {
        public var algorithm: String
        public var encryptedValue: String

        enum CodingKeys: String, CodingKey {
            case algorithm
            case encryptedValue = "encrypted_value"
        }
    }

    /// `encryption.user_key`: how the passphrase becomes the user key, the hint shown when asking for it, and
    /// the key check (the licence id encrypted with the user key).
    public struct UserKey: Sendable, Codable, Equatable {
        public var textHint: String
        public var algorithm: String
        public var keyCheck: String

        enum CodingKeys: String, CodingKey {
            case textHint = "text_hint"
            case algorithm
            case keyCheck = "key_check"
        }
    }

    /// A link of the licence (`status`, `publication`, `hint`, ...).
    public struct Link: Sendable, Codable, Equatable {
        /// Usually one rel; the specification allows several.
        public var rels: [String]
        public var href: String
        public var type: String?
        public var title: String?
        public var profile: String?
        public var templated: Bool
        /// Size in bytes of the linked resource (`publication`).
        public var length: Int?
        /// SHA-256 of the linked resource, hexadecimal (`publication`).
        public var hash: String?

        enum CodingKeys: String, CodingKey {
            case rel, href, type, title, profile, templated, length, hash
        }

        public init(rels: [String], href: String, type: String? = nil) {
            self.rels = rels
            self.href = href
            self.type = type
            self.templated = false
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let rel = try? container.decodeIfPresent(String.self, forKey: .rel) {
                rels = [rel]
            } else {
                rels = try container.decodeIfPresent([String].self, forKey: .rel) ?? []
            }
            href = try container.decode(String.self, forKey: .href)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            title = try container.decodeIfPresent(String.self, forKey: .title)
            profile = try container.decodeIfPresent(String.self, forKey: .profile)
            templated = try container.decodeIfPresent(Bool.self, forKey: .templated) ?? false
            length = try container.decodeIfPresent(Int.self, forKey: .length)
            hash = try container.decodeIfPresent(String.self, forKey: .hash)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if rels.count == 1 { try container.encode(rels[0], forKey: .rel) } else { try container.encode(rels, forKey: .rel) }
            try container.encode(href, forKey: .href)
            try container.encodeIfPresent(type, forKey: .type)
            try container.encodeIfPresent(title, forKey: .title)
            try container.encodeIfPresent(profile, forKey: .profile)
            if templated { try container.encode(templated, forKey: .templated) }
            try container.encodeIfPresent(length, forKey: .length)
            try container.encodeIfPresent(hash, forKey: .hash)
        }
    }

    /// `user`: who the licence was issued to. The fields named in `encrypted` are Base64 AES values under the
    /// user key (`BasicProfileLCPClient.decryptUserFields` reveals them once the passphrase is known).
    public struct User: Sendable, Codable, Equatable {
        public var id: String?
        public var email: String?
        public var name: String?
        public var encrypted: [String]

        public init(id: String? = nil, email: String? = nil, name: String? = nil, encrypted: [String] = []) {
            self.id = id
            self.email = email
            self.name = name
            self.encrypted = encrypted
        }

        enum CodingKeys: String, CodingKey { case id, email, name, encrypted }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id)
            email = try container.decodeIfPresent(String.self, forKey: .email)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            encrypted = try container.decodeIfPresent([String].self, forKey: .encrypted) ?? []
        }
    }

    /// `rights`: how many pages may be printed and characters copied, and the loan's period.
    public struct Rights: Sendable, Codable, Equatable {
        /// Pages that may be printed; nil means unlimited.
        public var print: Int?
        /// Characters that may be copied; nil means unlimited.
        public var copy: Int?
        public var start: Date?
        public var end: Date?

        public init(print: Int? = nil, copy: Int? = nil, start: Date? = nil, end: Date? = nil) {
            self.print = print
            self.copy = copy
            self.start = start
            self.end = end
        }

        enum CodingKeys: String, CodingKey { case print, copy, start, end }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            print = try container.decodeIfPresent(Int.self, forKey: .print)
            copy = try container.decodeIfPresent(Int.self, forKey: .copy)
            start = try container.decodeLCPDateIfPresent(forKey: .start)
            end = try container.decodeLCPDateIfPresent(forKey: .end)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(print, forKey: .print)
            try container.encodeIfPresent(copy, forKey: .copy)
            try container.encodeIfPresent(start.map(LCPDate.format), forKey: .start)
            try container.encodeIfPresent(end.map(LCPDate.format), forKey: .end)
        }
    }

    /// `signature`: RSA-SHA256 of the canonical licence, by the provider certificate embedded here (DER, Base64).
    public struct Signature: Sendable, Codable, Equatable {
        public var algorithm: String
        public var certificate: String
        public var value: String
    }
}

extension LicenseDocument {
    /// The basic profile of LCP 1.0, whose crypto is public.
    public static let basicProfile = "http://readium.org/lcp/basic-profile"
    /// The profile name of licences from before LCP 1.0 (2015-2016): basic-profile crypto under another name.
    public static let legacyProfile10 = "http://readium.org/lcp/profile-1.0"
}
