extension TextContentElement {
    /// A run of a segment's text with a role of its own, such as a note reference (`.noteRef`) inside
    /// a sentence: `range` counts characters of the segment's `text`.
    public struct InlineRun: Sendable, Hashable {
        public var role: ContentRole
        public var range: Range<Int>

        public init(role: ContentRole, range: Range<Int>) {
            self.role = role
            self.range = range
        }
    }

    /// This element without its inline runs whose role is in `roles` (role names, as `--skip` takes
    /// them): what a reader aloud says. The white space around a removed run is collapsed to one
    /// space, segments left empty are dropped and locators' highlights follow the new text (their
    /// `before`/`after` context is the document's); a segment changed keeps no inline run. Returns
    /// `self` when no run is removed.
    public func removingInlineRuns(withRoles roles: Set<String>) -> TextContentElement {
        guard segments.contains(where: { $0.inlineRuns.contains { roles.contains($0.role.name) } }) else { return self }
        var copy = self
        copy.segments = []
        // A run removed at the end of a segment: the next segment's leading space is one too many.
        var removedAtEnd = false
        for var segment in segments {
            let removed = segment.inlineRuns.filter { roles.contains($0.role.name) }
            let dropLeadingSpace = removedAtEnd && copy.segments.last?.text.last?.isWhitespace == true
            removedAtEnd = removed.contains { $0.range.upperBound >= segment.text.count }
            guard !removed.isEmpty || dropLeadingSpace else {
                copy.segments.append(segment)
                continue
            }
            segment.text = Self.text(segment.text, removing: removed.map(\.range))
            if dropLeadingSpace { segment.text = String(segment.text.drop(while: \.isWhitespace)) }
            segment.inlineRuns = []
            guard segment.text.contains(where: { !$0.isWhitespace }) else {
                removedAtEnd = removedAtEnd || !removed.isEmpty
                continue
            }
            segment.locator.text.highlight = segment.text
            copy.segments.append(segment)
        }
        if let first = copy.segments.first?.text, first.first?.isWhitespace == true {
            copy.segments[0].text = String(first.drop(while: \.isWhitespace))
        }
        if let last = copy.segments.last?.text, last.last?.isWhitespace == true {
            copy.segments[copy.segments.count - 1].text = String(last.reversed().drop(while: \.isWhitespace).reversed())
        }
        copy.locator.text.highlight = copy.text.isEmpty ? nil : copy.text
        return copy
    }

    /// `text` without the characters of `ranges`; a removal between two spaces keeps one of them.
    private static func text(_ text: String, removing ranges: [Range<Int>]) -> String {
        let characters = Array(text)
        var removed = [Bool](repeating: false, count: characters.count)
        for range in ranges {
            for offset in range where offset >= 0 && offset < characters.count { removed[offset] = true }
        }
        var result = ""
        var afterRemoval = false
        for (offset, character) in characters.enumerated() {
            if removed[offset] {
                afterRemoval = true
                continue
            }
            if afterRemoval, character.isWhitespace, result.last.map(\.isWhitespace) ?? true { continue }
            afterRemoval = false
            result.append(character)
        }
        return result
    }
}
