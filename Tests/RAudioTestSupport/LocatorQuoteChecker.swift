// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Checks text locators the way a visual navigator resolves them, without a browser: the element
/// `locations.cssSelector` selects in the resource's XHTML must be exactly one, and
/// `before + highlight + after` must be that element's own text (`textContent`), so that Readium's
/// text-quote match finds the highlight where it was meant.
///
/// Feed it the locators of one reading in reading order: within one element the highlights must not
/// go back or overlap, which catches a quote that matches an earlier occurrence of the same words.
public struct LocatorQuoteChecker {
    private let publication: Publication
    private var documents: [String: XMLDocument] = [:]
    /// What each selector selects in each resource (`href selector`): how many elements, and the one
    /// element's text content as UTF-8. Resolved once: the documents do not change, and a reading's
    /// words share their utterance's selector (a full walk of a long chapter for each word, otherwise).
    private var selections: [String: (count: Int, text: [UInt8])] = [:]
    /// The last highlight found in each element (UTF-8 offsets in its text content).
    private var lastRanges: [String: Range<Int>] = [:]
    public private(set) var checked = 0
    public private(set) var quoted = 0

    public init(publication: Publication) {
        self.publication = publication
    }

    /// Forgets the reading positions, to start another reading of the same publication.
    public mutating func restart() {
        lastRanges = [:]
        lastPlaces = [:]
    }

    /// The last (progression, totalProgression) of each href: a spine that repeats a document reads it again
    /// from its start, further in the publication (a new occurrence, whose highlights start over).
    private var lastPlaces: [String: (progression: Double, total: Double)] = [:]

    private mutating func noteOccurrence(of href: String, _ locations: Locator.Locations) {
        guard let progression = locations.progression, let total = locations.totalProgression else { return }
        if let last = lastPlaces[href], total > last.total, progression <= last.progression {
            lastRanges = lastRanges.filter { !$0.key.hasPrefix(href + " ") }
        }
        lastPlaces[href] = (progression, total)
    }

    /// Nil when `locator` designates exactly its text; otherwise what is wrong, naming the href and
    /// selector. With `spoken`, the highlight must also hold every character of it that is not white
    /// space, in order, beginning and ending with the same characters (the spoken text is the page's
    /// text normalized; a skipped note reference may sit inside the highlight). With `quoteMap` (how
    /// `spoken` lines up with the highlight), only the spoken text read verbatim from the page is held
    /// to that: a formula's alternative text stands for the formula as a whole.
    public mutating func problem(with locator: Locator, spoken: String? = nil, quoteMap: TextQuoteMap? = nil) -> String? {
        checked += 1
        let href = locator.href.components(separatedBy: "#")[0]
        noteOccurrence(of: href, locator.locations)
        guard let selector = locator.locations.cssSelector else {
            // A resource shown whole (an image in the reading order) has neither selector nor quote.
            return locator.text.highlight == nil ? nil : "\(href): a text quote without a cssSelector"
        }
        let key = href + " " + selector
        let selection: (count: Int, text: [UInt8])
        if let known = selections[key] {
            selection = known
        } else {
            let document: XMLDocument
            do {
                document = try self.document(href)
            } catch {
                return "\(href): the resource does not parse: \(error)"
            }
            let elements = CSSSelectorResolver.matches(selector, in: document)
            selection = (elements.count, elements.count == 1 ? Array(elements[0].textContent.utf8) : [])
            selections[key] = selection
        }
        guard selection.count == 1 else { return "\(href) \(selector): selects \(selection.count) elements" }
        guard let highlight = locator.text.highlight else { return nil }
        quoted += 1
        let whole = (locator.text.before ?? "") + highlight + (locator.text.after ?? "")
        guard let found = Self.firstOffset(of: Array(whole.utf8), in: selection.text) else {
            return "\(href) \(selector): \(Self.show(whole)) is not in the element's text"
        }
        let start = found + (locator.text.before ?? "").utf8.count
        let range = start..<(start + highlight.utf8.count)
        // Several words of a formula's alternative text all highlight the formula: the same range again.
        if let last = lastRanges[key], range != last, start < last.upperBound {
            return "\(href) \(selector): \(Self.show(highlight)) resolves at \(start), before the previous highlight's end \(last.upperBound)"
        }
        lastRanges[key] = range
        if highlight.first?.isWhitespace == true || highlight.last?.isWhitespace == true {
            return "\(href) \(selector): \(Self.show(highlight)) begins or ends with white space"
        }
        if let spoken, let mismatch = Self.mismatch(spoken: Self.verbatimParts(of: spoken, quoteMap: quoteMap), highlight: highlight) {
            return "\(href) \(selector): spoken \(Self.show(spoken)) against highlight \(Self.show(highlight)): \(mismatch)"
        }
        return nil
    }

    private mutating func document(_ href: String) throws -> XMLDocument {
        if let document = documents[href] { return document }
        let document = try XMLDocument(data: publication.resource(at: href).read(), href: href, mode: .recovering)
        documents[href] = document
        return document
    }

    /// Where `needle` first occurs in `bytes`, byte for byte, as JavaScript's `indexOf` finds it.
    private static func firstOffset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !needle.isEmpty else { return 0 }
        guard bytes.count >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { haystack.firstOffset(of: $0) } }
    }

    /// The characters of `spoken` read verbatim from the page, and whether its first and last
    /// characters are among them.
    private static func verbatimParts(of spoken: String, quoteMap: TextQuoteMap?) -> (text: String, first: Bool, last: Bool) {
        guard let quoteMap, quoteMap.textLength == spoken.utf8.count else { return (spoken, true, true) }
        var text = ""
        var offset = 0
        let visible = quoteMap.pieces.filter { piece in
            defer { offset += piece.textLength }
            return spoken.utf8Slice(offset..<(offset + piece.textLength)).contains { !$0.isWhitespace }
        }
        offset = 0
        for piece in quoteMap.pieces {
            if piece.isVerbatim { text += spoken.utf8Slice(offset..<(offset + piece.textLength)) }
            offset += piece.textLength
        }
        return (text, visible.first?.isVerbatim ?? true, visible.last?.isVerbatim ?? true)
    }

    private static func mismatch(spoken: (text: String, first: Bool, last: Bool), highlight: String) -> String? {
        let said = spoken.text.filter { !$0.isWhitespace }
        let shown = highlight.filter { !$0.isWhitespace }
        guard let first = said.first, let last = said.last else { return nil }
        if spoken.first, shown.first != first { return "first characters differ" }
        if spoken.last, shown.last != last { return "last characters differ" }
        var remaining = Substring(shown)
        for character in said {
            guard let index = remaining.firstIndex(of: character) else { return "'\(character)' is not in the highlight" }
            remaining = remaining[remaining.index(after: index)...]
        }
        return nil
    }

    private static func show(_ text: String) -> String {
        let clipped = text.count > 80 ? String(text.prefix(77)) + "..." : text
        return "\"" + clipped.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
    }
}
