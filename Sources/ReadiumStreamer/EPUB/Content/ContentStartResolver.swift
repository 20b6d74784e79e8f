// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Finds the element of a resource where a locator points: by CSS selector (or `#id` fragment), else
/// by its `text.highlight`, else by `progression`, else the first element.
///
/// A selector that matches nothing falls back to the text and then to the progression, with a warning.
struct ContentStartResolver {
    let elements: [ExtractedElement]
    let warnings: WarningLog

    func startIndex(for locator: Locator) -> Int {
        let highlight = locator.text.highlight.map(Self.normalized).flatMap { $0.isEmpty ? nil : $0 }
        if let selector = selector(of: locator) {
            let own = elements.indices.filter { elements[$0].ownSelector == selector }
            if let index = best(own, highlight: highlight) { return index }
            let containing = elements.indices.filter { elements[$0].matchingSelectors.contains(selector) }
            if let index = best(containing, highlight: highlight) { return index }
            warnings.append(ParsingWarning(source: locator.href, path: "", message: "the selector '\(selector)' matches no element; starting from the text or progression"))
        }
        if let highlight {
            let candidates = elements.indices.filter { text(at: $0).contains(highlight) }
            if let before = locator.text.before.map(Self.normalized), !before.isEmpty, candidates.count > 1 {
                let tail = String(before.suffix(20))
                if let index = candidates.first(where: { Self.normalized(elements[$0].element.locator.text.before ?? "").hasSuffix(tail) || text(at: $0).contains(tail + " " + highlight) || text(at: $0).contains(tail + highlight) }) {
                    return index
                }
            }
            if let first = candidates.first { return first }
        }
        if let progression = locator.locations.progression {
            return elements.indices.last { (elements[$0].element.locator.locations.progression ?? 0) <= progression + 1e-9 } ?? 0
        }
        return 0
    }

    private func selector(of locator: Locator) -> String? {
        if let selector = locator.locations.cssSelector, !selector.isEmpty { return selector }
        if let fragment = locator.locations.fragments.first(where: { !$0.contains("=") }), !fragment.isEmpty { return "#" + fragment }
        if let hash = locator.href.firstIndex(of: "#") {
            let fragment = locator.href[locator.href.index(after: hash)...]
            if !fragment.isEmpty, !fragment.contains("=") { return "#" + fragment }
        }
        return nil
    }

    private func best(_ indices: [Int], highlight: String?) -> Int? {
        if let highlight, let index = indices.first(where: { text(at: $0).contains(highlight) }) { return index }
        return indices.first
    }

    /// The page's text of the element (its quote), else its reading text, white space collapsed.
    private func text(at index: Int) -> String {
        let element = elements[index].element
        return Self.normalized(element.locator.text.highlight ?? element.spokenText ?? "")
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
