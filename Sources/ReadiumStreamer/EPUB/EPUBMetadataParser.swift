// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Turns the `<metadata>` of an EPUB 2 or 3 package document into RWPM `Metadata`.
///
/// EPUB 3 `refines` (title-type, file-as, role, alternate-script...) and EPUB 2 `opf:` attributes are
/// both read. Rendition properties go to `otherMetadata["presentation"]` and media overlay classes to
/// `otherMetadata["mediaOverlay"]`, as Readium's EPUB profile writes them.
struct EPUBMetadataParser {
    /// MARC relator codes to RWPM contributor keys; other codes stay in `Contributor.roles`.
    static let relatorRoles: [String: String] = [
        "aut": "author", "trl": "translator", "edt": "editor", "ill": "illustrator", "art": "artist",
        "nrt": "narrator", "pbl": "publisher", "clr": "colorist", "ink": "inker", "pen": "penciler",
        "let": "letterer", "ltr": "letterer",
    ]

    let package: EPUBPackageDocument
    let warnings: WarningLog
    let entries: [EPUBPackageDocument.MetaEntry]
    /// Refining entries by the id they refine.
    let refinements: [String: [EPUBPackageDocument.MetaEntry]]

    init(package: EPUBPackageDocument, warnings: WarningLog) {
        self.package = package
        self.warnings = warnings
        entries = package.metaEntries
        refinements = Dictionary(grouping: entries.filter { $0.refines != nil }, by: { $0.refines! })
    }

    func parse() -> Metadata {
        var metadata = Metadata(conformsTo: ["https://readium.org/webpub-manifest/profiles/epub"])
        let topLevel = entries.filter { $0.refines == nil }
        parseTitles(topLevel.filter { $0.property == "dc:title" }, into: &metadata)
        metadata.identifier = identifier(topLevel.filter { $0.property == "dc:identifier" })
        metadata.languages = topLevel.filter { $0.property == "dc:language" }.map(\.value).filter { !$0.isEmpty }
        if metadata.languages.isEmpty {
            warnings.append(ParsingWarning(source: package.href, path: "metadata", message: "no dc:language"))
        }
        metadata.description = topLevel.first { $0.property == "dc:description" }?.value
        parseContributors(topLevel, into: &metadata)
        parseDates(topLevel, into: &metadata)
        parseSubjects(topLevel.filter { $0.property == "dc:subject" }, into: &metadata)
        switch package.pageProgressionDirection {
        case "rtl": metadata.readingProgression = "rtl"
        case "ltr": metadata.readingProgression = "ltr"
        default: break
        }
        if let duration = topLevel.first(where: { $0.property == "media:duration" }) {
            metadata.duration = clockValue(duration)
        }
        var mediaOverlay = JSONObject()
        if let active = topLevel.first(where: { $0.property == "media:active-class" }) { mediaOverlay["activeClass"] = .string(active.value) }
        if let playback = topLevel.first(where: { $0.property == "media:playback-active-class" }) {
            mediaOverlay["playbackActiveClass"] = .string(playback.value)
        }
        if !mediaOverlay.isEmpty { metadata.otherMetadata["mediaOverlay"] = .object(mediaOverlay) }
        if let presentation = presentation(topLevel), !presentation.isEmpty {
            metadata.otherMetadata["presentation"] = .object(presentation)
        }
        return metadata
    }

    /// Seconds of a `media:duration` entry, or nil with a warning.
    func clockValue(_ entry: EPUBPackageDocument.MetaEntry) -> Double? {
        guard let seconds = SMILClockValue.seconds(entry.value) else {
            warnings.append(ParsingWarning(source: package.href, path: "metadata/meta[@property='media:duration']", message: "'\(entry.value)' is not a SMIL clock value; ignored"))
            return nil
        }
        return seconds
    }

    /// Durations of manifest items from `media:duration` refining them, by item id.
    var itemDurations: [String: Double] {
        var durations: [String: Double] = [:]
        for entry in entries where entry.property == "media:duration" {
            if let id = entry.refines, let seconds = clockValue(entry) { durations[id] = seconds }
        }
        return durations
    }

    private func refinement(_ property: String, of element: XMLElement) -> String? {
        guard let id = element.attribute("id") else { return nil }
        return refinements[id]?.first { $0.property == property }?.value
    }

    private func parseTitles(_ titles: [EPUBPackageDocument.MetaEntry], into metadata: inout Metadata) {
        guard !titles.isEmpty else {
            warnings.append(ParsingWarning(source: package.href, path: "metadata", message: "no dc:title"))
            return
        }
        let main = titles.first { refinement("title-type", of: $0.element) == "main" } ?? titles[0]
        metadata.title = localized(main)
        metadata.sortAs = refinement("file-as", of: main.element) ?? main.element.attribute("file-as", namespace: XMLNamespace.opf)
            ?? entries.first { $0.property == "calibre:title_sort" }?.value
        let subtitles = titles.filter { refinement("title-type", of: $0.element) == "subtitle" }
        let bySequence = subtitles.enumerated().min { lhs, rhs in
            let left = refinement("display-seq", of: lhs.element.element).flatMap(Int.init) ?? Int.max
            let right = refinement("display-seq", of: rhs.element.element).flatMap(Int.init) ?? Int.max
            return (left, lhs.offset) < (right, rhs.offset)
        }
        if let subtitle = bySequence?.element {
            metadata.subtitle = localized(subtitle)
        }
    }

    /// The value, with its `alternate-script` refinements as translations when there are any.
    private func localized(_ entry: EPUBPackageDocument.MetaEntry) -> LocalizedString {
        guard let id = entry.element.attribute("id"),
              let alternates = refinements[id]?.filter({ $0.property == "alternate-script" }), !alternates.isEmpty
        else { return .plain(entry.value) }
        var translations = JSONObject()
        translations[entry.element.declaredLanguage ?? package.language ?? "und"] = .string(entry.value)
        for alternate in alternates {
            if let language = alternate.element.declaredLanguage { translations[language] = .string(alternate.value) }
        }
        return translations.count > 1 ? .localized(translations) : .plain(entry.value)
    }

    private func identifier(_ identifiers: [EPUBPackageDocument.MetaEntry]) -> String? {
        if let id = package.uniqueIdentifierID, let unique = identifiers.first(where: { $0.element.attribute("id") == id }) {
            return unique.value
        }
        if package.uniqueIdentifierID != nil {
            warnings.append(ParsingWarning(source: package.href, path: "package/@unique-identifier", message: "names no dc:identifier; the first identifier is used"))
        }
        return identifiers.first?.value
    }

    private func parseContributors(_ topLevel: [EPUBPackageDocument.MetaEntry], into metadata: inout Metadata) {
        for entry in topLevel {
            let defaultKey: String
            switch entry.property {
            case "dc:creator", "dcterms:creator": defaultKey = "author"
            case "dc:contributor", "dcterms:contributor": defaultKey = "contributor"
            case "dc:publisher", "dcterms:publisher": defaultKey = "publisher"
            default: continue
            }
            guard !entry.value.isEmpty else { continue }
            let element = entry.element
            var codes: [String] = []
            if let id = element.attribute("id") {
                codes = refinements[id]?.filter { $0.property == "role" }.map(\.value) ?? []
            }
            if codes.isEmpty, let role = element.attribute("role", namespace: XMLNamespace.opf) ?? element.attribute(qualifiedName: "opf:role") {
                codes = [role]
            }
            var contributor = Contributor(
                name: localized(entry),
                sortAs: refinement("file-as", of: element) ?? element.attribute("file-as", namespace: XMLNamespace.opf)
                    ?? element.attribute(qualifiedName: "opf:file-as"))
            // Readium keeps only the first role of a contributor.
            codes = Array(codes.prefix(1))
            var keys = Set<String>()
            for code in codes {
                if let key = Self.relatorRoles[code.lowercased()] { keys.insert(key) } else { contributor.roles.append(code) }
            }
            if keys.isEmpty { keys.insert(defaultKey) }
            for key in Metadata.contributorRoles where keys.contains(key) {
                // A package naming one contributor twice in one role (EPUB 2's `dc:creator` with and without
                // `opf:file-as`, an EPUB 3 one beside it) lists them once, or `info` shows the author twice.
                if let same = metadata.contributors[key]?.firstIndex(where: { Self.isSame($0, contributor) }) {
                    if metadata.contributors[key]?[same].sortAs == nil { metadata.contributors[key]?[same].sortAs = contributor.sortAs }
                    continue
                }
                metadata.contributors[key, default: []].append(contributor)
            }
        }
    }

    /// Whether two contributors of one role are the same: the same name (white space and letter case
    /// aside) and the same further roles.
    private static func isSame(_ first: Contributor, _ second: Contributor) -> Bool {
        func key(_ contributor: Contributor) -> String {
            contributor.name.string.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        }
        return key(first) == key(second) && first.roles.map { $0.lowercased() } == second.roles.map { $0.lowercased() }
    }

    private func parseDates(_ topLevel: [EPUBPackageDocument.MetaEntry], into metadata: inout Metadata) {
        for entry in topLevel where entry.property == "dc:date" {
            let event = entry.element.attribute("event", namespace: XMLNamespace.opf) ?? entry.element.attribute(qualifiedName: "opf:event")
            switch event?.lowercased() {
            case "modification": metadata.modified = metadata.modified ?? entry.value
            case nil, "publication", "issued": metadata.published = metadata.published ?? entry.value
            default: break
            }
        }
        if let modified = topLevel.first(where: { $0.property == "dcterms:modified" })?.value {
            metadata.modified = modified
        }
        for (name, value) in [("modified", metadata.modified), ("published", metadata.published)] {
            if let value, !Self.isISO8601(value) {
                warnings.append(ParsingWarning(source: package.href, path: "metadata/\(name)", message: "'\(value)' is not an ISO 8601 date; kept as written"))
            }
        }
    }

    /// Whether `value` is an ISO 8601 date (`2020`, `2020-05`, `2020-05-01`) or date-time
    /// (`2020-05-01T10:30`, with seconds, a fraction and `Z` or an offset such as `+02:00` or `-0500`),
    /// ASCII digits only. Read by hand: a regular expression costs a few milliseconds of every book's
    /// opening (Foundation builds it, and its cache key looks up protocol conformances the first time).
    static func isISO8601(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var index = 0
        func digits(_ count: Int) -> Bool {
            guard index + count <= bytes.count, bytes[index..<index + count].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return false
            }
            index += count
            return true
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        var atEnd: Bool { index == bytes.count }
        guard digits(4) else { return false }
        if atEnd { return true }
        guard take("-"), digits(2) else { return false }
        if atEnd { return true }
        guard take("-"), digits(2) else { return false }
        if atEnd { return true }
        guard take("T"), digits(2), take(":"), digits(2) else { return false }
        if take(":") {
            guard digits(2) else { return false }
            if take(".") {
                guard digits(1) else { return false }
                while digits(1) {}
            }
        }
        if atEnd { return true }
        if take("Z") { return atEnd }
        guard take("+") || take("-"), digits(2) else { return false }
        _ = take(":")
        return digits(2) && atEnd
    }

    private func parseSubjects(_ subjects: [EPUBPackageDocument.MetaEntry], into metadata: inout Metadata) {
        var values: [JSONValue] = []
        for entry in subjects where !entry.value.isEmpty {
            let element = entry.element
            let scheme = refinement("authority", of: element) ?? element.attribute("authority", namespace: XMLNamespace.opf)
            let code = refinement("term", of: element) ?? element.attribute("term", namespace: XMLNamespace.opf)
            if scheme == nil && code == nil {
                values.append(.string(entry.value))
            } else {
                var object = JSONObject()
                object["name"] = .string(entry.value)
                if let scheme { object["scheme"] = .string(scheme) }
                if let code { object["code"] = .string(code) }
                values.append(.object(object))
            }
        }
        if !values.isEmpty { metadata.otherMetadata["subject"] = values.count == 1 ? values[0] : .array(values) }
    }

    /// `rendition:*` properties as Readium's `presentation` object.
    private func presentation(_ topLevel: [EPUBPackageDocument.MetaEntry]) -> JSONObject? {
        func value(_ property: String) -> String? { topLevel.first { $0.property == property }?.value }
        var object = JSONObject()
        switch value("rendition:layout") {
        case "pre-paginated": object["layout"] = .string("fixed")
        case "reflowable": object["layout"] = .string("reflowable")
        default: break
        }
        if let orientation = value("rendition:orientation"), ["auto", "landscape", "portrait"].contains(orientation) {
            object["orientation"] = .string(orientation)
        }
        switch value("rendition:spread") {
        case "none": object["spread"] = .string("none")
        case "landscape": object["spread"] = .string("landscape")
        case "both", "portrait": object["spread"] = .string("both")
        case "auto": object["spread"] = .string("auto")
        default: break
        }
        switch value("rendition:flow") {
        case "paginated": object["overflow"] = .string("paginated")
        case "scrolled-continuous", "scrolled-doc": object["overflow"] = .string("scrolled")
        case "auto": object["overflow"] = .string("auto")
        default: break
        }
        return object
    }
}
