// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Reads a catalog document of either OPDS version, told apart by its first bytes (not by the type the server
/// claims, which is often wrong).
///
/// An HTML page (a login page, a server's error page, a site's home) is refused by name, as is anything that
/// is neither XML nor JSON. Synchronous, any thread.
public enum OPDSParser {
    /// The largest catalog document read: a feed is a page of a catalog, not the catalog.
    public static let maximumDocumentSize = 16 * 1024 * 1024

    /// What the first bytes of a document say it is.
    public enum Kind: Sendable, Equatable {
        case xml, json, html, other
    }

    /// The kind of `data`, from its first non-blank bytes (a UTF-8 byte order mark skipped).
    public static func kind(of data: Data) -> Kind {
        var bytes = data.prefix(2048)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .other }
        let head = String(decoding: bytes[first...], as: UTF8.self).lowercased()
        switch bytes[first] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"):
            if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { return .html }
            // An XHTML page starts as XML: look for its root.
            let afterDeclarations = head.replacingOccurrences(of: #"<\?[^>]*\?>|<!--.*?-->|<!doctype[^>]*>|\s"#, with: "", options: .regularExpression)
            return afterDeclarations.hasPrefix("<html") ? .html : .xml
        default: return .other
        }
    }

    /// Parses `data`, served at `url`, as an OPDS 1 or OPDS 2 feed (or entry, or publication).
    ///
    /// - Throws: `OPDSError` `catalog-not-a-feed` for a web page or anything not a feed, `catalog-malformed`
    ///   for a truncated or malformed one, `too-large` past `maximumDocumentSize`.
    public static func parseFeed(data: Data, url: String) throws(OPDSError) -> Feed {
        guard data.count <= maximumDocumentSize else {
            throw OPDSError(.tooLarge, url: url, message: "is \(data.count) bytes, more than the \(maximumDocumentSize / 1024 / 1024) MB a catalog page may be")
        }
        switch kind(of: data) {
        case .json: return try OPDS2Parser.parse(data: data, url: url)
        case .xml: return try OPDS1Parser.parse(data: data, url: url)
        case .html:
            throw OPDSError(.catalogNotAFeed, url: url, message: "is a web page (HTML), not an OPDS feed; give the address of the catalog's feed (Atom or OPDS 2 JSON)")
        case .other:
            throw OPDSError(.catalogNotAFeed, url: url, message: "is neither XML nor JSON, so not an OPDS feed")
        }
    }
}
