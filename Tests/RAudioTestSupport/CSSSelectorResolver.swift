// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumStreamer

/// Resolves the selectors the content extractor writes (`#id`, or `html > body > p:nth-child(3)`)
/// against a parsed document, independently of the extractor, to check them.
public enum CSSSelectorResolver {
    /// The one element `selector` selects, or nil when it selects none or several.
    public static func resolve(_ selector: String, in document: XMLDocument) -> XMLElement? {
        let found = matches(selector, in: document)
        return found.count == 1 ? found[0] : nil
    }

    /// Every element `selector` selects, in document order, as `querySelectorAll` would give them.
    /// Only the two forms the extractor writes are understood; any other selector selects nothing.
    public static func matches(_ selector: String, in document: XMLDocument) -> [XMLElement] {
        if selector.hasPrefix("#") {
            let id = String(selector.dropFirst())
            return ([document.root] + document.root.descendants).filter { $0.attribute("id") == id }
        }
        let steps = selector.components(separatedBy: " > ")
        guard let first = steps.first, first == document.root.localName else { return [] }
        var current = [document.root]
        for step in steps.dropFirst() {
            let parts = step.components(separatedBy: ":nth-child(")
            let name = parts[0]
            var next: [XMLElement] = []
            for element in current {
                let children = element.childElements
                if parts.count == 2 {
                    guard let index = Int(parts[1].dropLast()), index >= 1, index <= children.count,
                          children[index - 1].localName == name else { continue }
                    next.append(children[index - 1])
                } else {
                    next += children.filter { $0.localName == name }
                }
            }
            current = next
        }
        return current
    }
}
