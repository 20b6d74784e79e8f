// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension EPUBParser {
    /// The reading order (spine) and resources (the rest of the manifest), as documented on `EPUBParser`.
    func links(
        package: EPUBPackageDocument, metadataParser: EPUBMetadataParser, entries: Set<String>, warnings: WarningLog
    ) -> (readingOrder: [Link], resources: [Link]) {
        let durations = metadataParser.itemDurations
        var itemsByID: [String: EPUBPackageDocument.Item] = [:]
        for item in package.items { itemsByID[item.id] = item }
        func href(_ item: EPUBPackageDocument.Item) -> String {
            (try? Href(item.path, decodingPercentEscapes: false).string) ?? item.path
        }
        func link(_ item: EPUBPackageDocument.Item) -> Link {
            var link = Link(href: href(item), type: item.mediaType ?? Self.inferredType(item, package: package, warnings: warnings))
            if item.properties.contains("nav") { link.rels.append("contents") }
            if item.properties.contains("cover-image") { link.rels.append("cover") }
            let contains = item.properties.compactMap { Self.containsValues[$0] }
            if !contains.isEmpty { link.properties["contains"] = .array(contains.map(JSONValue.string)) }
            if let overlayID = item.mediaOverlay {
                if let overlay = itemsByID[overlayID] {
                    link.properties["mediaOverlay"] = .string(href(overlay))
                    link.duration = durations[overlayID]
                } else {
                    warnings.append(ParsingWarning(source: package.href, path: "manifest/item[@id='\(item.id)']", message: "media-overlay '\(overlayID)' names no manifest item; ignored"))
                }
            }
            if let duration = durations[item.id] { link.duration = duration }
            return link
        }

        var readingOrder: [Link] = []
        var inSpine: Set<String> = []
        var occurrences: [String: Int] = [:]
        for itemref in package.spine {
            guard let item = itemsByID[itemref.idref] else {
                warnings.append(ParsingWarning(source: package.href, path: "spine/itemref[@idref='\(itemref.idref)']", message: "names no manifest item; ignored"))
                continue
            }
            // A spine may repeat an item (EPUB 3.3 §3.4.5): each occurrence is its own place in the reading
            // order, told apart by `totalProgression` (see `EPUBContentService`). The second and later ones say
            // which occurrence they are (`properties.occurrence`: 2, 3...), as the RWPM's reading order holds
            // no two equal links.
            let occurrence = occurrences[item.id, default: 0] + 1
            occurrences[item.id] = occurrence
            inSpine.insert(item.id)
            var spineLink = link(item)
            if occurrence > 1 { spineLink.properties["occurrence"] = .integer(Int64(occurrence)) }
            if !itemref.isLinear { spineLink.properties["linear"] = .bool(false) }
            for (key, value) in Self.spineProperties(itemref.properties) { spineLink.properties[key] = .string(value) }
            if !entries.contains(item.path) {
                spineLink.properties["missing"] = .bool(true)
                warnings.append(ParsingWarning(source: package.href, path: "spine/itemref[@idref='\(itemref.idref)']", message: "its file '\(item.path)' is missing from the container; marked missing"))
            }
            readingOrder.append(spineLink)
        }
        if package.spine.isEmpty {
            warnings.append(ParsingWarning(source: package.href, path: "spine", message: "the spine is empty"))
        }
        var resources: [Link] = []
        for item in package.items where !inSpine.contains(item.id) {
            if !entries.contains(item.path) && !Href.isRemote(item.path) {
                warnings.append(ParsingWarning(source: package.href, path: "manifest/item[@id='\(item.id)']", message: "its file '\(item.path)' is missing from the container"))
            }
            resources.append(link(item))
        }
        return (readingOrder, resources)
    }

    /// The media type of an item without `media-type`, from its file extension (RWPM requires one).
    static func inferredType(_ item: EPUBPackageDocument.Item, package: EPUBPackageDocument, warnings: WarningLog) -> String {
        let fileExtension = URL(fileURLWithPath: item.path).pathExtension
        let type = MediaType.forFileExtension(fileExtension)?.string ?? "application/octet-stream"
        warnings.append(ParsingWarning(source: package.href, path: "manifest/item[@id='\(item.id)']", message: "no media-type; \(type) assumed from the file name"))
        return type
    }

    /// Manifest item properties to Readium's `properties.contains` values (`scripted` is `js`).
    static let containsValues = ["mathml": "mathml", "svg": "svg", "scripted": "js", "remote-resources": "remote-resources"]

    /// Readium link properties from spine itemref properties (`page-spread-left`, `rendition:layout-*`...).
    static func spineProperties(_ properties: [String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for property in properties {
            switch property {
            case "page-spread-left", "rendition:page-spread-left": result.append(("page", "left"))
            case "page-spread-right", "rendition:page-spread-right": result.append(("page", "right"))
            case "page-spread-center", "rendition:page-spread-center": result.append(("page", "center"))
            case "rendition:layout-pre-paginated": result.append(("layout", "fixed"))
            case "rendition:layout-reflowable": result.append(("layout", "reflowable"))
            case "rendition:orientation-auto": result.append(("orientation", "auto"))
            case "rendition:orientation-landscape": result.append(("orientation", "landscape"))
            case "rendition:orientation-portrait": result.append(("orientation", "portrait"))
            case "rendition:spread-none": result.append(("spread", "none"))
            case "rendition:spread-landscape": result.append(("spread", "landscape"))
            case "rendition:spread-both", "rendition:spread-portrait": result.append(("spread", "both"))
            case "rendition:spread-auto": result.append(("spread", "auto"))
            case "rendition:flow-paginated": result.append(("overflow", "paginated"))
            case "rendition:flow-scrolled-continuous", "rendition:flow-scrolled-doc": result.append(("overflow", "scrolled"))
            case "rendition:flow-auto": result.append(("overflow", "auto"))
            default: break
            }
        }
        return result
    }

    /// Adds the rel `cover` to the item named by an EPUB 2 `<meta name="cover" content="id">`.
    func markCover(package: EPUBPackageDocument, metadataParser: EPUBMetadataParser, readingOrder: inout [Link], resources: inout [Link]) {
        guard let coverID = metadataParser.entries.first(where: { $0.property == "cover" && $0.refines == nil })?.value,
              let item = package.item(id: coverID),
              let href = try? Href(item.path, decodingPercentEscapes: false).string
        else { return }
        for index in resources.indices where resources[index].href == href && !resources[index].rels.contains("cover") {
            resources[index].rels.append("cover")
        }
        for index in readingOrder.indices where readingOrder[index].href == href && !readingOrder[index].rels.contains("cover") {
            readingOrder[index].rels.append("cover")
        }
    }

    /// The navigation from the EPUB 3 navigation document, else from the NCX; empty with a warning
    /// when neither is usable.
    func navigation(package: EPUBPackageDocument, container: any Container, entries: Set<String>, warnings: WarningLog) -> EPUBNavigationParser.Navigation {
        let parser = EPUBNavigationParser(warnings: warnings)
        if let nav = package.items.first(where: { $0.properties.contains("nav") }), let document = read(nav.path, mode: .recovering, container: container, warnings: warnings) {
            let navigation = parser.parseNavigationDocument(document)
            if !navigation.tableOfContents.isEmpty || package.ncxID == nil { return navigation }
        }
        let ncx = package.ncxID.flatMap(package.item(id:)) ?? package.items.first { $0.mediaType == MediaType.ncx.string }
        if let ncx, let document = read(ncx.path, mode: .strict, container: container, warnings: warnings) {
            return parser.parseNCX(document)
        }
        warnings.append(ParsingWarning(source: package.href, path: "manifest", message: "no usable navigation document or NCX; the table of contents is empty"))
        return EPUBNavigationParser.Navigation()
    }

    private func read(_ path: String, mode: XMLDocument.Mode, container: any Container, warnings: WarningLog) -> XMLDocument? {
        do {
            let document = try XMLDocument(data: container.resource(at: path).read(maximumSize: XMLDocument.defaultMaximumSize), href: path, mode: mode)
            for warning in document.warnings { warnings.append(warning) }
            return document
        } catch {
            warnings.append(ParsingWarning(source: path, path: "", message: "cannot be used: \(error)"))
            return nil
        }
    }
}
