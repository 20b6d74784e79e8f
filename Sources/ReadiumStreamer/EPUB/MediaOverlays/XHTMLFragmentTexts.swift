// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The text of every element with an `id` in an XHTML document, for the text locators of media overlay
/// `par`s (whose `cssSelector` is `#id`): `highlight` is the element's own `textContent`, white space at
/// its ends left out, exactly as the page has it; no `before`/`after`, since the quote is found within the
/// selected element and is all of its text. Pure: works on a parsed `XMLDocument`.
struct XHTMLFragmentTexts {
    /// Characters of context on each side.
    static let contextLength = 50

    /// The body's text, every text and CDATA node in document order.
    private var text = ""
    /// Where each element with an id lies in `text` (UTF-8 offsets).
    private var ranges: [String: Range<Int>] = [:]

    init(document: XMLDocument) {
        let body = document.root.firstDescendant("body") ?? document.root
        walk(body)
    }

    /// The text of the element with `id`, with context; nil when no element has that id.
    func text(ofElementWithID id: String) -> Locator.Text? {
        guard let range = ranges[id] else { return nil }
        var quote = Locator.Text.quoting(range, of: text, within: range, contextLength: Self.contextLength)
        quote.highlight = quote.highlight ?? ""
        return quote
    }

    /// Whether an element has `id`.
    func contains(id: String) -> Bool { ranges[id] != nil }

    /// Records the text of `element` and the range of each element with an id; iterative, as deep as the tree is.
    private mutating func walk(_ element: XMLElement) {
        var pending: [(element: XMLElement, next: Int, start: Int)] = [(element, 0, 0)]
        while let last = pending.indices.last {
            let (current, next, start) = pending[last]
            guard next < current.children.count else {
                if let id = current.attribute("id") { ranges[id] = start..<text.utf8.count }
                pending.removeLast()
                continue
            }
            pending[last].next = next + 1
            switch current.children[next] {
            case .element(let inner): pending.append((inner, 0, text.utf8.count))
            case .text(let string), .cdata(let string): text += string
            }
        }
    }
}
