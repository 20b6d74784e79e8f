// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Marks the narrated parts of one content document for its Media Overlay: a `span` with an `id` around each
/// spoken range, or an `id` on the element, inserted into the document's own bytes. In an SVG content document
/// (root `svg`) the wrapper is a `tspan`, and only inside a `text` element, where SVG allows one (a root with a
/// prefix, `svg:svg`, gets ids only).
///
/// Nothing is re-serialized: the text of the page and every byte outside the inserted markup stay as they
/// were. A range is wrapped when its ends lie in text (or at the edges of whole inline elements) of one
/// element; a range that would have to split an inline element, crosses a block, lies in CDATA, in SVG/MathML
/// inside XHTML (in an SVG document: outside SVG `text`), or whose element's text is not the one the content
/// extractor read, falls back to an `id` on the smallest element that holds it (an existing `id` is kept).
struct XHTMLNarrationMarker {
    /// How a clip's target was marked.
    enum Marking: Equatable {
        case span
        case elementID
    }

    let href: String
    private let scanner: XHTMLByteScanner
    /// Whether the document is an SVG content document: `tspan`s in its `text`, not XHTML `span`s.
    private let isSVG: Bool
    /// Whether `tspan`s may be inserted: an SVG document whose root has no prefix (with one, `svg:svg`, every
    /// clip is an `id` on its element).
    private let wrapsSVGText: Bool
    /// Whether some element of the document makes another vocabulary than XHTML the default (`xmlns="…"`).
    private let declaresOtherDefaults: Bool
    private var insertions: [(offset: Int, order: Int, text: String)] = []
    private var usedIdentifiers: Set<String>
    private var elementIdentifiers: [Int: String] = [:]
    private var spans: [Range<Int>: String] = [:]
    private var textLengths: [Int] = []
    private(set) var markings: [Marking] = []

    /// A marker of `data`, the document at `href`; throws when its bytes cannot be scanned.
    init(data: Data, href: String) throws(EPUBWriteError) {
        guard let scanner = XHTMLByteScanner(data: data) else {
            throw EPUBWriteError(.unreadableSource, subject: href, message: "is not a well-formed UTF-8 XHTML document, whose markup raudio can insert ids into")
        }
        self.href = href
        self.scanner = scanner
        isSVG = scanner.root.map { scanner.elements[$0].localName == "svg" } ?? false
        wrapsSVGText = isSVG && scanner.root.map { !scanner.elements[$0].qualifiedName.contains(":") } ?? false
        declaresOtherDefaults = scanner.elements.contains(where: Self.makesOtherDefault)
        usedIdentifiers = scanner.identifiers
        textLengths = Array(repeating: -1, count: scanner.elements.count)
        for index in scanner.elements.indices.reversed() { _ = textLength(of: index) }
    }

    /// Marks `target` and gives the fragment identifier its SMIL `text` points at; `serial` numbers the id.
    mutating func mark(_ target: NarrationTarget, serial: Int) -> String {
        let whole = isSVG ? "svg" : "html > body"
        let element = scanner.element(matching: target.locator.locations.cssSelector ?? whole) ?? scanner.element(matching: whole) ?? scanner.root ?? 0
        guard let range = target.textRange, let elementText = target.elementText, !range.isEmpty,
              range.upperBound <= elementText.text.utf8.count, isSVG ? wrapsSVGText && isInSVGText(element) : !isInForeignContent(element),
              scanner.textContent(of: element).text == elementText.text else {
            markings.append(.elementID)
            return identifier(of: element, serial: serial)
        }
        switch wrap(element, range) {
        case .bytes(let bytes):
            if let existing = spans[bytes] {
                markings.append(.span)
                return existing
            }
            guard !spans.keys.contains(where: { $0.overlaps(bytes) && !($0.contains(bytes.lowerBound) && $0.contains(bytes.upperBound - 1)) && !(bytes.contains($0.lowerBound) && bytes.contains($0.upperBound - 1)) }) else {
                markings.append(.elementID)
                return identifier(of: element, serial: serial)
            }
            let id = newIdentifier("raudio-s\(serial)")
            spans[bytes] = id
            insertions.append((bytes.lowerBound, 1, "\(wrapperTag(in: element)) id=\"\(id)\">"))
            insertions.append((bytes.upperBound, 0, isSVG ? "</tspan>" : "</span>"))
            markings.append(.span)
            return id
        case .element(let holder):
            markings.append(.elementID)
            return identifier(of: holder, serial: serial)
        }
    }

    /// Adds a stylesheet link at the end of the document's `head` (in an SVG document, an `xml-stylesheet`
    /// processing instruction before its root).
    mutating func linkStylesheet(_ relativeHref: String) {
        if isSVG, let root = scanner.root {
            insertions.append((scanner.elements[root].startTag.lowerBound, 2, "<?xml-stylesheet href=\"\(Self.escape(relativeHref))\" type=\"text/css\"?>"))
            return
        }
        guard let head = scanner.elements.firstIndex(where: { $0.localName == "head" }), let end = scanner.elements[head].endTag else { return }
        insertions.append((end.lowerBound, 2, "<link rel=\"stylesheet\" type=\"text/css\" href=\"\(Self.escape(relativeHref))\"/>"))
    }

    /// The document with the markup inserted.
    func markedData() -> Data {
        var result = Data()
        result.reserveCapacity(scanner.bytes.count + insertions.count * 32)
        var position = 0
        for insertion in insertions.enumerated().sorted(by: { ($0.element.offset, $0.element.order, $0.offset) < ($1.element.offset, $1.element.order, $1.offset) }).map(\.element) {
            result.append(contentsOf: scanner.bytes[position..<insertion.offset])
            result.append(contentsOf: Array(insertion.text.utf8))
            position = insertion.offset
        }
        result.append(contentsOf: scanner.bytes[position...])
        return result
    }

    private enum Wrap {
        case bytes(Range<Int>)
        case element(Int)
    }

    /// Where a span around `range` of `element`'s text opens and closes, or the smallest element that holds it.
    private func wrap(_ element: Int, _ range: Range<Int>) -> Wrap {
        var extents: [(child: XHTMLByteScanner.Child, range: Range<Int>)] = []
        var start = 0
        for child in scanner.elements[element].children {
            let length: Int
            switch child {
            case .element(let index): length = textLengths[index]
            case .text(let node): length = node.text.utf8.count
            }
            extents.append((child, start..<(start + length)))
            start += length
        }
        guard let first = extents.firstIndex(where: { $0.range.lowerBound <= range.lowerBound && range.lowerBound < $0.range.upperBound }),
              let last = extents.lastIndex(where: { $0.range.lowerBound < range.upperBound && range.upperBound <= $0.range.upperBound }) else {
            return .element(element)
        }
        if first == last, case .element(let child) = extents[first].child {
            let offset = extents[first].range.lowerBound
            let inner = (range.lowerBound - offset)..<(range.upperBound - offset)
            if case .bytes(let bytes) = wrap(child, inner) { return .bytes(bytes) }
            if inner.count == extents[first].range.count, !isBlock(child) {
                return .bytes(outerBytes(of: child))
            }
            return wrap(child, inner)
        }
        for index in first...last {
            if case .element(let child) = extents[index].child, isBlock(child) {
                return .element(element)
            }
        }
        guard let open = position(of: extents[first], at: range.lowerBound, opening: true),
              let close = position(of: extents[last], at: range.upperBound, opening: false), open < close else {
            return .element(element)
        }
        return .bytes(open..<close)
    }

    /// The start of a wrapper's tag inside `element`: `<tspan` in SVG, `<span`, or where another vocabulary is the
    /// default in or around `element` (the CML of an `epub:switch` case), `<span xmlns="…xhtml"`: still an XHTML
    /// `span`, which the stylesheet reaches.
    private func wrapperTag(in element: Int) -> String {
        if isSVG { return "<tspan" }
        guard declaresOtherDefaults else { return "<span" }
        var current: Int? = element
        while let index = current, scanner.elements[index].attributes["xmlns"] == nil { current = scanner.elements[index].parent }
        let inScope = current.flatMap { scanner.elements[$0].attributes["xmlns"] } ?? XMLNamespace.xhtml
        return inScope == XMLNamespace.xhtml && !declaresOtherDefault(within: element) ? "<span" : "<span xmlns=\"\(XMLNamespace.xhtml)\""
    }

    /// Whether an element inside `element` declares another default vocabulary than XHTML.
    private func declaresOtherDefault(within element: Int) -> Bool {
        scanner.elements[element].children.contains { child in
            guard case .element(let index) = child else { return false }
            return Self.makesOtherDefault(scanner.elements[index]) || declaresOtherDefault(within: index)
        }
    }

    /// Whether `element` declares another default vocabulary than XHTML (`xmlns="…"`).
    private static func makesOtherDefault(_ element: XHTMLByteScanner.Element) -> Bool {
        element.attributes["xmlns"].map { $0 != XMLNamespace.xhtml } ?? false
    }

    /// Whether a wrapper may not hold `element` whole: an XHTML block, or in SVG anything but what a `tspan` may
    /// contain (a `textPath` belongs in `text` itself).
    private func isBlock(_ element: Int) -> Bool {
        let name = scanner.elements[element].localName
        return isSVG ? !Self.svgTspanContent.contains(name) : HTMLElementRules.blocks.contains(name)
    }

    /// The elements with text that SVG 1.1 allows in a `tspan`.
    private static let svgTspanContent: Set<String> = ["tspan", "a", "tref", "altGlyph"]

    /// The byte offset where a span may open (or close) at text offset `offset` of `extent`.
    private func position(of extent: (child: XHTMLByteScanner.Child, range: Range<Int>), at offset: Int, opening: Bool) -> Int? {
        switch extent.child {
        case .text(let node):
            guard !node.isCDATA else { return nil }
            let local = offset - extent.range.lowerBound
            return local < node.byteOffsets.count ? node.byteOffsets[local] : node.end
        case .element(let index):
            let bytes = outerBytes(of: index)
            if opening, offset == extent.range.lowerBound { return bytes.lowerBound }
            if !opening, offset == extent.range.upperBound { return bytes.upperBound }
            return nil
        }
    }

    private func outerBytes(of element: Int) -> Range<Int> {
        let value = scanner.elements[element]
        return value.startTag.lowerBound..<(value.endTag?.upperBound ?? value.startTag.upperBound)
    }

    private mutating func textLength(of element: Int) -> Int {
        if textLengths[element] >= 0 { return textLengths[element] }
        var length = 0
        for child in scanner.elements[element].children {
            switch child {
            case .element(let index): length += textLength(of: index)
            case .text(let node): length += node.text.utf8.count
            }
        }
        textLengths[element] = length
        return length
    }

    /// Whether `element` is in SVG or MathML (or a prefixed vocabulary), where an XHTML `span` does not belong.
    private func isInForeignContent(_ element: Int) -> Bool {
        var current: Int? = element
        while let index = current {
            let value = scanner.elements[index]
            if value.qualifiedName.contains(":") || ["svg", "math"].contains(value.localName) { return true }
            current = value.parent
        }
        return false
    }

    /// Whether `element` is SVG text content of an SVG document (a `text` or inside one, no prefixed or
    /// `foreignObject` vocabulary on the way), where a `tspan` may wrap part of its text.
    private func isInSVGText(_ element: Int) -> Bool {
        var current: Int? = element
        var inText = false
        while let index = current {
            let value = scanner.elements[index]
            if value.qualifiedName.contains(":") || value.localName == "foreignObject" { return false }
            if value.localName == "text" { inText = true }
            current = value.parent
        }
        return inText
    }

    /// The `id` of `element`: its own, else one inserted into its start tag.
    private mutating func identifier(of element: Int, serial: Int) -> String {
        if let id = scanner.elements[element].attributes["id"] { return id }
        if let id = elementIdentifiers[element] { return id }
        let id = newIdentifier("raudio-e\(serial)")
        elementIdentifiers[element] = id
        let tag = scanner.elements[element].startTag
        let selfClosing = scanner.bytes[tag.upperBound - 2] == UInt8(ascii: "/")
        insertions.append((tag.upperBound - (selfClosing ? 2 : 1), 3, " id=\"\(id)\""))
        return id
    }

    /// `base`, or `base-2`, `base-3`… when the document already has it.
    private mutating func newIdentifier(_ base: String) -> String {
        var id = base
        var suffix = 1
        while usedIdentifiers.contains(id) {
            suffix += 1
            id = "\(base)-\(suffix)"
        }
        usedIdentifiers.insert(id)
        return id
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
