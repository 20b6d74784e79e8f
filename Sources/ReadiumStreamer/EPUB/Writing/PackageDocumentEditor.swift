// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Edits the bytes of a package document (OPF) for Media Overlays: the new manifest items, `media-overlay` on
/// each narrated content document, and the metadata EPUB 3 asks of a book with overlays. Everything else in
/// the file stays byte for byte.
struct PackageDocumentEditor {
    /// One narrated content document's overlay, as the package lists it.
    struct Overlay {
        /// The manifest id of the content document.
        var contentItemID: String
        var smilID: String
        var smilHref: String
        /// The document's own audio file's manifest item; nil when its clips are in shared files (`extraManifestItems`).
        var audioID: String?
        var audioHref: String
        var audioMediaType: String
        var duration: Double
    }

    private let scanner: XHTMLByteScanner
    private var edits: [(range: Range<Int>, text: String)] = []
    private(set) var identifiers: Set<String>

    init(data: Data, href: String) throws(EPUBWriteError) {
        guard let scanner = XHTMLByteScanner(data: data) else {
            throw EPUBWriteError(.unreadableSource, subject: href, message: "is not a UTF-8 package document raudio can edit")
        }
        self.scanner = scanner
        identifiers = scanner.identifiers
    }

    /// `base`, or `base-2`… when the package already has that id.
    mutating func newIdentifier(_ base: String) -> String {
        var id = base
        var suffix = 1
        while identifiers.contains(id) {
            suffix += 1
            id = "\(base)-\(suffix)"
        }
        identifiers.insert(id)
        return id
    }

    private func elements(named localName: String) -> [Int] {
        scanner.elements.indices.filter { scanner.elements[$0].localName == localName }
    }

    /// Adds the overlays, their audio, `stylesheet` (a manifest item) and the metadata.
    mutating func add(overlays: [Overlay], stylesheet: (id: String, href: String), options: MediaOverlayEPUBWriter.Options, modified: String) {
        let escape = XHTMLNarrationMarker.escape
        for overlay in overlays {
            guard let item = elements(named: "item").first(where: { scanner.elements[$0].attributes["id"] == overlay.contentItemID }) else { continue }
            let tag = scanner.elements[item].startTag
            let tagText = String(decoding: scanner.bytes[tag], as: UTF8.self)
            if let existing = tagText.range(of: #"\smedia-overlay\s*=\s*("[^"]*"|'[^']*')"#, options: .regularExpression) {
                let lower = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.lowerBound)
                let upper = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.upperBound)
                edits.append((lower..<upper, " media-overlay=\"\(escape(overlay.smilID))\""))
            } else {
                let selfClosing = scanner.bytes[tag.upperBound - 2] == UInt8(ascii: "/")
                let at = tag.upperBound - (selfClosing ? 2 : 1)
                edits.append((at..<at, " media-overlay=\"\(escape(overlay.smilID))\""))
            }
        }
        if let manifest = elements(named: "manifest").first, let end = scanner.elements[manifest].endTag {
            var items = "  <item id=\"\(stylesheet.id)\" href=\"\(escape(stylesheet.href))\" media-type=\"text/css\"/>\n"
            for overlay in overlays {
                items += "    <item id=\"\(overlay.smilID)\" href=\"\(escape(overlay.smilHref))\" media-type=\"application/smil+xml\"/>\n"
                if let audioID = overlay.audioID {
                    items += "    <item id=\"\(audioID)\" href=\"\(escape(overlay.audioHref))\" media-type=\"\(escape(overlay.audioMediaType))\"/>\n"
                }
            }
            for item in extraManifestItems { items += "    \(item)\n" }
            edits.append((end.lowerBound..<end.lowerBound, items + "  "))
        }

        // Metadata this writer owns replaces the book's own (an earlier narration's).
        let owned: Set<String> = ["media:duration", "media:active-class", "media:playback-active-class", "media:narrator", "dcterms:modified"]
        var existingValues: Set<String> = []
        for meta in elements(named: "meta") {
            let element = scanner.elements[meta]
            guard let property = element.attributes["property"] else { continue }
            if owned.contains(property) {
                var lower = element.startTag.lowerBound
                // The line's indentation goes with it.
                while lower > 0, scanner.bytes[lower - 1] == UInt8(ascii: " ") || scanner.bytes[lower - 1] == UInt8(ascii: "\t") { lower -= 1 }
                edits.append((lower..<(element.endTag?.upperBound ?? element.startTag.upperBound), ""))
            } else {
                let value = String(decoding: scanner.bytes[element.content], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                existingValues.insert("\(property) \(value)")
            }
        }
        guard let metadata = elements(named: "metadata").first, let end = scanner.elements[metadata].endTag else { return }
        var metas: [String] = []
        func meta(_ property: String, _ value: String, refines: String? = nil) {
            guard refines != nil || !existingValues.contains("\(property) \(value)") else { return }
            let refinement = refines.map { " refines=\"#\(escape($0))\"" } ?? ""
            metas.append("<meta property=\"\(property)\"\(refinement)>\(escape(value))</meta>")
        }
        meta("dcterms:modified", modified)
        for overlay in overlays { meta("media:duration", SMILDocumentWriter.clockValue(overlay.duration), refines: overlay.smilID) }
        let total = overlays.reduce(0) { $0 + (($1.duration * 1000).rounded() / 1000) }
        meta("media:duration", SMILDocumentWriter.clockValue(total))
        for narrator in options.narrators { meta("media:narrator", narrator) }
        meta("media:active-class", options.activeClass)
        if let playing = options.playbackActiveClass { meta("media:playback-active-class", playing) }
        meta("schema:accessMode", "textual")
        meta("schema:accessMode", "auditory")
        meta("schema:accessModeSufficient", "textual")
        meta("schema:accessModeSufficient", "auditory")
        meta("schema:accessibilityFeature", "synchronizedAudioText")
        edits.append((end.lowerBound..<end.lowerBound, "  " + metas.joined(separator: "\n    ") + "\n  "))
    }

    /// Manifest items added with the overlays' (`<item …/>` lines).
    var extraManifestItems: [String] = []

    /// Makes EPUB 2 metadata EPUB 3's: `opf:role` and `opf:file-as` of Dublin Core elements become `refines`
    /// metas (an `id` added where the element has none), other `opf:` attributes (`scheme`, `event`) are dropped.
    mutating func convertEPUB2Metadata() {
        let escape = XHTMLNarrationMarker.escape
        guard let metadata = elements(named: "metadata").first, let end = scanner.elements[metadata].endTag else { return }
        var metas: [String] = []
        var serial = 0
        for index in scanner.elements.indices where scanner.elements[index].qualifiedName.hasPrefix("dc:") {
            let element = scanner.elements[index]
            let opfAttributes = element.attributes.filter { $0.key.hasPrefix("opf:") }
            guard !opfAttributes.isEmpty else { continue }
            let tag = element.startTag
            let tagText = String(decoding: scanner.bytes[tag], as: UTF8.self)
            var searchStart = tagText.startIndex
            while let match = tagText.range(of: #"\sopf:[A-Za-z-]+\s*=\s*("[^"]*"|'[^']*')"#, options: .regularExpression, range: searchStart..<tagText.endIndex) {
                let lower = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: match.lowerBound)
                let upper = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: match.upperBound)
                edits.append((lower..<upper, ""))
                searchStart = match.upperBound
            }
            let refined = ["opf:role", "opf:file-as"].filter { opfAttributes[$0].map { !$0.isEmpty } ?? false }
            guard !refined.isEmpty else { continue }
            var id = element.attributes["id"]
            if id == nil {
                serial += 1
                id = newIdentifier("raudio-\(element.localName)-\(serial)")
                let selfClosing = scanner.bytes[tag.upperBound - 2] == UInt8(ascii: "/")
                let at = tag.upperBound - (selfClosing ? 2 : 1)
                edits.append((at..<at, " id=\"\(id!)\""))
            }
            if let role = opfAttributes["opf:role"], !role.isEmpty {
                metas.append("<meta refines=\"#\(escape(id!))\" property=\"role\" scheme=\"marc:relators\">\(escape(role))</meta>")
            }
            if let fileAs = opfAttributes["opf:file-as"], !fileAs.isEmpty {
                metas.append("<meta refines=\"#\(escape(id!))\" property=\"file-as\">\(escape(fileAs))</meta>")
            }
        }
        if !metas.isEmpty { edits.append((end.lowerBound..<end.lowerBound, "  " + metas.joined(separator: "\n    ") + "\n  ")) }
    }

    /// Removes the manifest item `id` (an earlier overlay that a new one replaces), its line's indentation with it.
    mutating func removeManifestItem(id: String) {
        guard let item = elements(named: "item").first(where: { scanner.elements[$0].attributes["id"] == id }) else { return }
        let element = scanner.elements[item]
        var lower = element.startTag.lowerBound
        while lower > 0, scanner.bytes[lower - 1] == UInt8(ascii: " ") || scanner.bytes[lower - 1] == UInt8(ascii: "\t") { lower -= 1 }
        edits.append((lower..<(element.endTag?.upperBound ?? element.startTag.upperBound), ""))
    }

    /// Adds `property` (EPUB 3's `svg`, `mathml`…) to the `properties` of manifest item `id`.
    mutating func addProperty(_ property: String, toItem id: String) {
        guard let item = elements(named: "item").first(where: { scanner.elements[$0].attributes["id"] == id }) else { return }
        let tag = scanner.elements[item].startTag
        let tagText = String(decoding: scanner.bytes[tag], as: UTF8.self)
        if let existing = tagText.range(of: #"\sproperties\s*=\s*("[^"]*"|'[^']*')"#, options: .regularExpression) {
            let values = scanner.elements[item].attributes["properties"]?.split(whereSeparator: \.isWhitespace).map(String.init) ?? []
            guard !values.contains(property) else { return }
            let lower = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.lowerBound)
            let upper = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.upperBound)
            edits.append((lower..<upper, " properties=\"\(XHTMLNarrationMarker.escape((values + [property]).joined(separator: " ")))\""))
        } else {
            let selfClosing = scanner.bytes[tag.upperBound - 2] == UInt8(ascii: "/")
            let at = tag.upperBound - (selfClosing ? 2 : 1)
            edits.append((at..<at, " properties=\"\(XHTMLNarrationMarker.escape(property))\""))
        }
    }

    /// Sets the package's `version` to 3.0.
    mutating func setVersion3() {
        guard let package = elements(named: "package").first else { return }
        let tag = scanner.elements[package].startTag
        let tagText = String(decoding: scanner.bytes[tag], as: UTF8.self)
        if let existing = tagText.range(of: #"\sversion\s*=\s*("[^"]*"|'[^']*')"#, options: .regularExpression) {
            let lower = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.lowerBound)
            let upper = tag.lowerBound + tagText.utf8.distance(from: tagText.startIndex, to: existing.upperBound)
            edits.append((lower..<upper, " version=\"3.0\""))
        } else {
            edits.append(((tag.upperBound - 1)..<(tag.upperBound - 1), " version=\"3.0\""))
        }
    }

    /// The package document with the edits made.
    func editedData() -> Data {
        var result = Data()
        var position = 0
        for edit in edits.enumerated().sorted(by: { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }).map(\.element) {
            guard edit.range.lowerBound >= position else { continue }
            result.append(contentsOf: scanner.bytes[position..<edit.range.lowerBound])
            result.append(contentsOf: Array(edit.text.utf8))
            position = edit.range.upperBound
        }
        result.append(contentsOf: scanner.bytes[position...])
        return result
    }
}
