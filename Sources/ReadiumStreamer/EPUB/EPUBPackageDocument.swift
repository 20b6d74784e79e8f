// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The parts of an OPF package document the parser needs, read from its XML tree.
///
/// Hrefs of manifest items are resolved against the OPF's own href and percent-decoded with `Href`; an
/// item whose href leaves the container or points to the network is dropped with a warning.
struct EPUBPackageDocument {
    struct Item {
        var id: String
        /// Normalized, decoded path relative to the container's root.
        var path: String
        var mediaType: String?
        var properties: [String]
        /// The id of the media overlay (SMIL) item of this item.
        var mediaOverlay: String?
    }

    struct SpineItem {
        var idref: String
        var isLinear: Bool
        var properties: [String]
    }

    /// A `<meta>` (EPUB 3 `property` or EPUB 2 `name`/`content`) or a Dublin Core element.
    struct MetaEntry {
        var element: XMLElement
        /// `property` (EPUB 3) or `name` (EPUB 2); for DC elements, `dc:<local name>`.
        var property: String
        var value: String
        /// The id it refines, without `#`, if any.
        var refines: String?
    }

    var href: String
    /// "2.0", "3.0"... as declared.
    var version: String
    var uniqueIdentifierID: String?
    var language: String?
    var items: [Item]
    var spine: [SpineItem]
    /// The `toc` attribute of the spine (the NCX item id, EPUB 2).
    var ncxID: String?
    var pageProgressionDirection: String?
    /// The children of `<metadata>` (EPUB 2 `dc-metadata`/`x-metadata` flattened), in order.
    var metadataElements: [XMLElement]

    init(document: XMLDocument, warnings: WarningLog) throws(EPUBError) {
        let root = document.root
        href = document.href
        guard root.localName == "package" else {
            throw EPUBError(.invalidPackage, href: href, message: "is not a package document: its root element is <\(root.qualifiedName)>, not <package>")
        }
        version = root.attribute("version") ?? "2.0"
        uniqueIdentifierID = root.attribute("unique-identifier")
        language = root.declaredLanguage
        if root.attribute("version") == nil {
            warnings.append(ParsingWarning(source: href, path: "package", message: "no version attribute; read as EPUB 2"))
        }

        var metadataElements: [XMLElement] = []
        if let metadata = root.firstChild("metadata") {
            for child in metadata.childElements {
                if child.localName == "dc-metadata" || child.localName == "x-metadata" {
                    metadataElements += child.childElements
                } else {
                    metadataElements.append(child)
                }
            }
        } else {
            warnings.append(ParsingWarning(source: href, path: "package", message: "no <metadata> element"))
        }
        self.metadataElements = metadataElements

        items = []
        if let manifest = root.firstChild("manifest") {
            var seen: Set<String> = []
            for element in manifest.children("item") {
                guard let id = element.attribute("id"), let itemHref = element.attribute("href") else {
                    warnings.append(ParsingWarning(source: href, path: "manifest/item (line \(element.line))", message: "an item without id or href; ignored"))
                    continue
                }
                guard !seen.contains(id) else {
                    warnings.append(ParsingWarning(source: href, path: "manifest/item[@id='\(id)']", message: "duplicate item id; the first one is kept"))
                    continue
                }
                let path: String
                do {
                    path = try Href(itemHref, relativeTo: href).path
                } catch {
                    warnings.append(ParsingWarning(source: href, path: "manifest/item[@id='\(id)']", message: "href '\(itemHref)' \(error.message); ignored"))
                    continue
                }
                seen.insert(id)
                items.append(Item(
                    id: id, path: path, mediaType: element.attribute("media-type"),
                    properties: Self.tokens(element.attribute("properties")), mediaOverlay: element.attribute("media-overlay")))
            }
        } else {
            warnings.append(ParsingWarning(source: href, path: "package", message: "no <manifest> element"))
        }

        spine = []
        if let spineElement = root.firstChild("spine") {
            ncxID = spineElement.attribute("toc")
            pageProgressionDirection = spineElement.attribute("page-progression-direction")
            for element in spineElement.children("itemref") {
                guard let idref = element.attribute("idref") else {
                    warnings.append(ParsingWarning(source: href, path: "spine/itemref (line \(element.line))", message: "an itemref without idref; ignored"))
                    continue
                }
                spine.append(SpineItem(
                    idref: idref, isLinear: element.attribute("linear")?.lowercased() != "no",
                    properties: Self.tokens(element.attribute("properties"))))
            }
        } else {
            warnings.append(ParsingWarning(source: href, path: "package", message: "no <spine> element"))
        }
    }

    /// The meta and Dublin Core entries of `<metadata>`, in order.
    var metaEntries: [MetaEntry] {
        metadataElements.compactMap { element in
            let refines = element.attribute("refines").map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
            if element.namespaceURI == XMLNamespace.dc || element.prefix == "dc" {
                return MetaEntry(element: element, property: "dc:\(element.localName)", value: element.normalizedText, refines: refines)
            }
            guard element.localName == "meta" else { return nil }
            if let property = element.attribute("property") {
                return MetaEntry(element: element, property: property, value: element.normalizedText, refines: refines)
            }
            if let name = element.attribute("name") {
                return MetaEntry(element: element, property: name, value: element.attribute("content") ?? "", refines: refines)
            }
            return nil
        }
    }

    func item(id: String) -> Item? {
        items.first { $0.id == id }
    }

    static func tokens(_ attribute: String?) -> [String] {
        (attribute ?? "").split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
