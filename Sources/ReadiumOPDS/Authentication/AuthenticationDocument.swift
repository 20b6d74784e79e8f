// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// An OPDS Authentication 1.0 document: how a catalog wants its users to sign in.
///
/// raudio signs in with the flows it can run from a terminal: HTTP Basic (`http://opds-spec.org/auth/basic`)
/// and a bearer token (an OAuth token or Palace's basic-then-token flow, given by the user); the others are
/// named (`flows`) so that a message can say which the catalog offers.
public struct AuthenticationDocument: Sendable, Hashable {
    /// One way to sign in.
    public struct Authentication: Sendable, Hashable {
        public var type: String
        public var links: [Link]
        /// The words to show for the login and password (`labels.login`, `labels.password`).
        public var loginLabel: String?
        public var passwordLabel: String?
        /// The `inputs` object, kept whole (keyboards, lengths, barcode formats).
        public var inputs: JSONObject

        /// Whether raudio can sign in this way: Basic, or a bearer token.
        public var flow: Flow {
            switch type {
            case AuthenticationDocument.basic: .basic
            case AuthenticationDocument.oauthImplicit, AuthenticationDocument.oauthPassword, AuthenticationDocument.palaceBasicToken: .bearerToken
            default: .other
            }
        }
    }

    /// How raudio sends credentials for an authentication type.
    public enum Flow: String, Sendable, Hashable {
        /// `Authorization: Basic`, from a login and a password.
        case basic
        /// `Authorization: Bearer`, from a token (OAuth, or Palace's token flow).
        case bearerToken = "bearer-token"
        /// A flow raudio does not run (SAML, a web login...).
        case other
    }

    public static let basic = "http://opds-spec.org/auth/basic"
    public static let oauthImplicit = "http://opds-spec.org/auth/oauth/implicit"
    public static let oauthPassword = "http://opds-spec.org/auth/oauth/password"
    public static let palaceBasicToken = "http://thepalaceproject.org/authtype/basic-token"

    public var identifier: String
    public var title: String
    public var description: String?
    public var authentications: [Authentication]
    public var links: [Link]
    public var warnings: [ParsingWarning]

    /// Parses the document `data` served at `url`; lenient with a warning for each mistake (NYPL's writes a
    /// `"type": null`). The JSON must be an object with `id`, `title` and `authentication`.
    public init(data: Data, url: String) throws(OPDSError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw OPDSError(.catalogMalformed, url: url, message: "is not valid JSON (\(error)), so not an OPDS authentication document", cause: error)
        }
        guard let object = value.objectValue, object["authentication"] != nil else {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is not an OPDS authentication document (no \"authentication\")")
        }
        let log = WarningLog()
        let reader = LenientJSONReader(object, source: url, log: log)
        identifier = reader.string("id") ?? ""
        title = reader.string("title") ?? ""
        if identifier.isEmpty { reader.warn("id", "the authentication document has no id") }
        description = reader.string("description")
        authentications = reader.objects("authentication").compactMap { item in
            guard let type = item.string("type") else {
                item.warn(nil, "an authentication without a type; ignored")
                return nil
            }
            let labels = item.child("labels")
            return Authentication(
                type: type, links: Link.links(in: item, key: "links"), loginLabel: labels?.string("login"),
                passwordLabel: labels?.string("password"), inputs: item.child("inputs")?.object ?? JSONObject()
            )
        }
        links = Link.links(in: reader, key: "links")
        warnings = log.warnings
    }

    /// The first authentication raudio can run, Basic before a token.
    public var preferredAuthentication: Authentication? {
        authentications.first { $0.flow == .basic } ?? authentications.first { $0.flow == .bearerToken }
    }
}
