@testable import ReadiumStreamer

/// Resolves the selectors the content extractor writes (`#id`, or `html > body > p:nth-child(3)`)
/// against a parsed document, independently of the extractor, to check them.
enum CSSSelectorResolver {
    static func resolve(_ selector: String, in document: XMLDocument) -> XMLElement? {
        if selector.hasPrefix("#") {
            let id = String(selector.dropFirst())
            if document.root.attribute("id") == id { return document.root }
            return document.root.descendants.first { $0.attribute("id") == id || $0.attribute("id", namespace: XMLNamespace.xml) == id }
        }
        let steps = selector.components(separatedBy: " > ")
        guard let first = steps.first, first == document.root.localName else { return nil }
        var current = document.root
        for step in steps.dropFirst() {
            let parts = step.components(separatedBy: ":nth-child(")
            let name = parts[0]
            let children = current.childElements
            if parts.count == 2 {
                guard let index = Int(parts[1].dropLast()), index >= 1, index <= children.count, children[index - 1].localName == name else { return nil }
                current = children[index - 1]
            } else {
                let matches = children.filter { $0.localName == name }
                guard matches.count == 1 else { return nil }
                current = matches[0]
            }
        }
        return current
    }
}
