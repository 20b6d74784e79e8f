// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import Foundation
import ReadiumOPDS
import ReadiumShared

/// What raudio does with a catalog entry: which of its acquisition links it follows, and how.
enum CatalogEntryChoice: Equatable {
    /// A link raudio opens as it opens any URL (an audiobook manifest, an EPUB, an audio file...).
    case open(Link)
    /// An LCP licence: its publication is acquired (`raudio lcp acquire`) and opened with its passphrase.
    case lcp(Link)
    /// A link to the entry's loan (an OPDS publication or entry document), whose own links say what to open.
    case follow(Link)

    var link: Link {
        switch self {
        case .open(let link), .lcp(let link), .follow(let link): link
        }
    }

    /// The word `raudio catalog` prints for it: `open`, `lcp`, `follow`.
    var word: String {
        switch self {
        case .open: "open"
        case .lcp: "lcp"
        case .follow: "follow"
        }
    }

    /// What raudio can do with `link`, or nil (a purchase, a DRM it lacks, a streaming page, a template).
    static func of(_ link: Link) -> CatalogEntryChoice? {
        guard let kind = link.acquisitionKind, kind != "buy", kind != "subscribe", !link.templated else { return nil }
        if let state = link.availability?.state, state == "unavailable" || state == "reserved" { return nil }
        let type = link.type ?? ""
        if OPDSMediaType.isLCPLicense(type) { return .lcp(link) }
        if OPDSMediaType.isOPDS2(type) || (OPDSMediaType.isAtom(type) && type.contains("entry")) { return .follow(link) }
        guard link.indirectAcquisitions.isEmpty else { return nil }
        // An untyped link of an open-access acquisition is taken at its word; its bytes say what it is.
        if type.isEmpty { return kind == "open-access" ? .open(link) : nil }
        return OPDSMediaType.isOpenable(type) ? .open(link) : nil
    }

    /// The best way to have `publication`: a link to open (an open-access one first, a sample last), else an LCP
    /// licence, else a loan to follow; for listening, an audiobook before an EPUB; for reading aloud, the reverse.
    static func best(for publication: OPDSPublication, prefersText: Bool) -> CatalogEntryChoice? {
        let choices = publication.acquisitionLinks.compactMap(of)
        func rank(_ choice: CatalogEntryChoice) -> (Int, Int, Int) {
            let kindRank: Int
            switch choice {
            case .open(let link): kindRank = link.acquisitionKind == "open-access" ? 0 : 1
            case .lcp: kindRank = 2
            case .follow: kindRank = 3
            }
            let link = choice.link
            let sample = link.acquisitionKind == "sample" ? 1 : 0
            let type = OPDSMediaType.essence(link.acquisitionMediaTypes.last ?? link.type ?? "")
            let isText = type == OPDSMediaType.epub || type == "application/webpub+json" || type.hasPrefix("text/") || type == "application/xhtml+xml"
            let typeRank = prefersText ? (isText ? 0 : 1) : (OPDSMediaType.isAudiobook(type) ? 0 : 1)
            return (sample, kindRank, typeRank)
        }
        return choices.enumerated().min { left, right in
            let (a, b) = (rank(left.element), rank(right.element))
            return a != b ? a < b : left.offset < right.offset
        }?.element
    }

    /// Why nothing of `publication` can be opened, for its error: what it offers instead.
    static func refusal(for publication: OPDSPublication) -> String {
        let offers = publication.acquisitionLinks.map { link -> String in
            let price = link.prices.map { String(format: "%@ %.2f", $0.currency, $0.value) }.joined(separator: ", ")
            let through = link.acquisitionChains.first.map { $0.joined(separator: " > ") } ?? ""
            return [link.acquisitionKind ?? "acquisition", price, through.isEmpty ? "" : "as \(through)"].filter { !$0.isEmpty }.joined(separator: " ")
        }
        guard !offers.isEmpty else { return "has no acquisition link: raudio has nothing to open" }
        return "offers only what raudio cannot open (\(offers.joined(separator: "; "))): no open-access link, LCP licence or loan it can follow"
    }
}

/// Finding an entry of a feed from the fragment of `CATALOG-URL#ENTRY`.
enum CatalogEntryReference {
    /// The fragment naming `publication`, the `index`th (0-based) of its feed: its id percent-encoded, else its
    /// 1-based position.
    static func fragment(for publication: OPDSPublication, index: Int) -> String {
        guard let id = publication.entryID ?? publication.metadata.identifier, !id.isEmpty else { return String(index + 1) }
        return URITemplate.percentEncoded(id)
    }

    /// The publication of `feed` that `fragment` names: by id (`entryID` or identifier), by 1-based position, or
    /// by title (ignoring case).
    static func find(_ fragment: String, in feed: Feed) -> OPDSPublication? {
        let wanted = fragment.removingPercentEncoding ?? fragment
        let publications = feed.allPublications
        if let match = publications.first(where: { $0.entryID == wanted || $0.metadata.identifier == wanted }) { return match }
        if let position = Int(wanted), publications.indices.contains(position - 1) { return publications[position - 1] }
        return publications.first { $0.title.caseInsensitiveCompare(wanted) == .orderedSame }
    }
}
#endif
