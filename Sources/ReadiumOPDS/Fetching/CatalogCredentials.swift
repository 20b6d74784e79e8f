// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// What raudio signs in to a catalog with: a login and password (HTTP Basic) or a bearer token.
///
/// Never written anywhere: its `description` hides the secret, so that a log, an error or an event that
/// mentions it shows only its kind.
public enum CatalogCredentials: Sendable, Hashable, CustomStringConvertible {
    case basic(login: String, password: String)
    case bearer(token: String)

    /// The `Authorization` header value.
    public var authorizationHeader: String {
        switch self {
        case .basic(let login, let password): "Basic " + Data("\(login):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        }
    }

    public var description: String {
        switch self {
        case .basic: "Basic credentials (hidden)"
        case .bearer: "a bearer token (hidden)"
        }
    }

    /// Reads credentials from a file: a JSON object `{"login": ..., "password": ...}` (`username` is taken for
    /// `login`) or `{"token": ...}`. The file's text never appears in an error.
    public static func read(file url: URL) throws(OPDSError) -> CatalogCredentials {
        guard let data = try? Data(contentsOf: url), data.count <= 64 * 1024 else {
            throw OPDSError(.notFound, path: url.path, message: "cannot be read (a credentials file of at most 64 KB)")
        }
        guard let object = (try? JSONParser.parse(data))?.objectValue else {
            throw OPDSError(.badData, path: url.path, message: "is not a JSON object such as {\"login\": \"...\", \"password\": \"...\"} or {\"token\": \"...\"}")
        }
        if let token = object["token"]?.stringValue ?? object["access_token"]?.stringValue, !token.isEmpty {
            return .bearer(token: token)
        }
        if let login = object["login"]?.stringValue ?? object["username"]?.stringValue, let password = object["password"]?.stringValue {
            return .basic(login: login, password: password)
        }
        throw OPDSError(.badData, path: url.path, message: "has neither \"token\" nor \"login\" and \"password\"")
    }
}
