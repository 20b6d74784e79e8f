import Foundation
import ReadiumShared

/// The text of every element with an `id` in an XHTML document, with context, for the text locators
/// of media overlay `par`s (`highlight` is the element's text; `before`/`after` the document's text
/// around it). Whitespace is collapsed as a reader shows it. Pure: works on a parsed `XMLDocument`.
struct XHTMLFragmentTexts {
    /// Characters of context on each side.
    static let contextLength = 50

    private var text: [Character] = []
    private var ranges: [String: Range<Int>] = [:]

    init(document: XMLDocument) {
        let body = document.root.firstDescendant("body") ?? document.root
        walk(body)
    }

    /// The text of the element with `id`, with context; nil when no element has that id.
    func text(ofElementWithID id: String) -> Locator.Text? {
        guard let range = ranges[id] else { return nil }
        let highlight = String(text[range]).trimmingCharacters(in: .whitespaces)
        let before = String(text[max(0, range.lowerBound - Self.contextLength)..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        let after = String(text[range.upperBound..<min(text.count, range.upperBound + Self.contextLength)]).trimmingCharacters(in: .whitespaces)
        return Locator.Text(before: before.isEmpty ? nil : before, highlight: highlight, after: after.isEmpty ? nil : after)
    }

    /// Whether an element has `id`.
    func contains(id: String) -> Bool { ranges[id] != nil }

    private mutating func walk(_ element: XMLElement) {
        let start = text.count
        for child in element.children {
            switch child {
            case .element(let inner):
                if inner.localName == "script" || inner.localName == "style" { continue }
                walk(inner)
            default:
                append(child.textContent)
            }
        }
        if let id = element.attribute("id") { ranges[id] = start..<text.count }
    }

    private mutating func append(_ string: String) {
        for character in string {
            if character.isWhitespace {
                if let last = text.last, !last.isWhitespace { text.append(" ") }
            } else {
                text.append(character)
            }
        }
    }
}

