// SPDX-License-Identifier: GPL-3.0-or-later
/// The link relations of OPDS that raudio reads.
public enum OPDSRel {
    /// Any acquisition; the sub-relations below add how.
    public static let acquisition = "http://opds-spec.org/acquisition"
    public static let openAccess = "http://opds-spec.org/acquisition/open-access"
    public static let borrow = "http://opds-spec.org/acquisition/borrow"
    public static let buy = "http://opds-spec.org/acquisition/buy"
    public static let sample = "http://opds-spec.org/acquisition/sample"
    public static let preview = "preview"
    public static let subscribe = "http://opds-spec.org/acquisition/subscribe"
    public static let facet = "http://opds-spec.org/facet"
    public static let image = "http://opds-spec.org/image"
    public static let thumbnail = "http://opds-spec.org/image/thumbnail"
    /// OPDS Authentication 1.0: the feed's authentication document.
    public static let authenticationDocument = "http://opds-spec.org/auth/document"
    /// A group an OPDS 1 entry belongs to (NYPL/Palace "groups" feeds).
    public static let collection = "collection"
    public static let catalog = "http://opds-spec.org/catalog"

    /// The short name of an acquisition relation: `open-access`, `borrow`, `buy`, `sample`, `subscribe`,
    /// `acquisition` for the generic one; nil for a relation that is not an acquisition.
    public static func acquisitionKind(_ rel: String) -> String? {
        if rel == acquisition { return "acquisition" }
        guard rel.hasPrefix(acquisition + "/") else { return nil }
        return String(rel.dropFirst(acquisition.count + 1))
    }
}

/// The media types of OPDS documents and of what their acquisitions lead to.
public enum OPDSMediaType {
    public static let opds2Feed = "application/opds+json"
    public static let opds2Publication = "application/opds-publication+json"
    public static let authentication = "application/opds-authentication+json"
    public static let atom = "application/atom+xml"
    public static let openSearch = "application/opensearchdescription+xml"
    /// The registered LCP licence type; some feeds write `application/vnd.readium.lcp.license-1.0+json`.
    public static let lcpLicense = "application/vnd.readium.lcp.license.v1.0+json"
    public static let readiumAudiobook = "application/audiobook+json"
    public static let epub = "application/epub+zip"

    /// The type's essence, lower-cased, without parameters (`application/atom+xml`).
    public static func essence(_ type: String) -> String {
        String(type.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }

    public static func isAuthentication(_ type: String) -> Bool { essence(type) == authentication }

    /// An LCP licence, with either spelling of its version.
    public static func isLCPLicense(_ type: String) -> Bool {
        let essence = essence(type)
        return essence == lcpLicense || essence == "application/vnd.readium.lcp.license-1.0+json"
    }

    /// An audiobook: a Readium audiobook manifest or package, an LCP audiobook, or an audio file.
    public static func isAudiobook(_ type: String) -> Bool {
        let essence = essence(type)
        return essence.hasPrefix("audio/") || essence.hasPrefix("application/audiobook+")
    }

    /// A document raudio opens as it is (no DRM, no further acquisition step): an EPUB, an audiobook manifest
    /// or package, a Readium Web Publication, an audio file, a web page or text.
    public static func isOpenable(_ type: String) -> Bool {
        let essence = essence(type)
        if essence == "application/audiobook+lcp" { return false }
        return isAudiobook(type) || [
            epub, "application/webpub+json", "application/webpub+zip", "application/divina+json", "application/x-mpegurl",
            "text/plain", "application/xhtml+xml",
        ].contains(essence)
    }

    /// An OPDS 1 feed or entry (`application/atom+xml;profile=opds-catalog`...), or any Atom document.
    public static func isAtom(_ type: String) -> Bool { essence(type) == atom }
    /// An OPDS 2 feed or publication document.
    public static func isOPDS2(_ type: String) -> Bool { [opds2Feed, opds2Publication].contains(essence(type)) }
}
