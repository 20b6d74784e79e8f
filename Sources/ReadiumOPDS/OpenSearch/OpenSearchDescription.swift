// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// An OpenSearch 1.1 description document: how an OPDS 1 catalog is searched.
public struct OpenSearchDescription: Sendable, Hashable {
    /// One `Url` of the description: a template and the type of what it answers.
    public struct URLTemplate: Sendable, Hashable {
        public var type: String
        public var template: String
        /// The 1-based first page number (`pageOffset`), 1 by default.
        public var pageOffset: Int
        public var indexOffset: Int
    }

    public var shortName: String
    public var description: String?
    public var urls: [URLTemplate]
    /// The example query's search terms (`<Query role="example" searchTerms=...>`), if any.
    public var exampleSearchTerms: String?
    /// The example query's `count`, the page size a template with a required `{count}` is given.
    public var exampleCount: Int?

    /// Parses the description `data` served at `url`.
    public init(data: Data, url: String) throws(OPDSError) {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, href: url, maximumSize: 1024 * 1024)
        } catch {
            throw OPDSError(.catalogMalformed, url: url, message: "is not a well-formed OpenSearch description: \(error.message)", cause: error)
        }
        let root = document.root
        guard root.localName == "OpenSearchDescription" else {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is XML with a <\(root.qualifiedName)> root, not an OpenSearch description")
        }
        shortName = root.firstChild("ShortName")?.normalizedText ?? ""
        description = root.firstChild("Description")?.normalizedText
        urls = root.children("Url").compactMap { element in
            guard let template = element.attribute("template") else { return nil }
            return URLTemplate(
                type: element.attribute("type") ?? "", template: template,
                pageOffset: element.attribute("pageOffset").flatMap { Int($0) } ?? 1,
                indexOffset: element.attribute("indexOffset").flatMap { Int($0) } ?? 1
            )
        }
        let example = root.children("Query").first { $0.attribute("role") == "example" }
        exampleSearchTerms = example?.attribute("searchTerms")
        exampleCount = example?.attribute("count").flatMap { Int($0) }
    }

    /// The template that answers with an OPDS feed: an OPDS catalog type first, then any Atom one.
    public var opdsTemplate: URLTemplate? {
        urls.first { $0.type.contains("opds-catalog") } ?? urls.first { OPDSMediaType.isAtom($0.type) }
            ?? urls.first { OPDSMediaType.isOPDS2($0.type) }
    }

    /// The URL of page `page` (1-based) of the results for `terms`, from the OPDS template; nil without one.
    ///
    /// `{searchTerms}` gets the terms, `{startPage}` the page, `{startIndex}` its first item, `{count}` the
    /// example query's count (else 20); any other parameter is left empty, as OpenSearch allows.
    public func searchURL(terms: String, page: Int = 1) -> String? {
        guard let template = opdsTemplate else { return nil }
        let count = exampleCount ?? 20
        let values: [String: String] = [
            "searchTerms": terms, "startPage": String(template.pageOffset + page - 1),
            "startIndex": String(template.indexOffset + (page - 1) * count), "count": String(count),
        ]
        var result = ""
        var rest = Substring(template.template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            var name = String(rest[rest.index(after: open)..<close])
            if name.hasSuffix("?") { name.removeLast() }
            // A parameter raudio does not know (`{language}`, `{geo:box?}`) is left empty.
            if let value = values[name] { result += URITemplate.percentEncoded(value) }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
