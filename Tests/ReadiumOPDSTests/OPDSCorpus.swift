// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer

@testable import ReadiumOPDS

/// The documents of `../shared/corpus/opds`, parsed as a catalog served at their name would be.
enum OPDSCorpus {
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: Corpus.file("opds/\(path)"))
    }

    /// The feed at `path` (`opds1/...`), hrefs as written.
    static func feed(_ path: String) throws -> Feed {
        try OPDSParser.parseFeed(data: data(path), url: "opds/\(path)")
    }

    /// Every `atom:entry` of the OPDS 1 document at `path`, in document order (the root one for an entry document),
    /// whether the feed makes it a publication, a navigation link or a member of a group.
    static func entries(_ path: String) throws -> [OPDSPublication] {
        let document = try XMLDocument(data: data(path), href: path)
        let elements = document.root.localName == "entry" ? [document.root] : document.root.children("entry")
        return elements.map { OPDS1Parser.parseEntry($0, url: path, log: WarningLog()) }
    }

    /// The raw JSON object at `path`.
    static func json(_ path: String) throws -> JSONObject {
        try JSONParser.parse(data(path)).objectValue ?? JSONObject()
    }
}

extension OPDSPublication {
    /// The names of the contributors under `role`.
    func names(_ role: String) -> [String] { (metadata.contributors[role] ?? []).map(\.name.string) }
    /// How many links have `rel`.
    func count(rel: String) -> Int { links.filter { $0.rels.contains(rel) }.count }
}
