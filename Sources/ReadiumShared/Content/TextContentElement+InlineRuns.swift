// SPDX-License-Identifier: GPL-3.0-or-later
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
    /// space and segments left empty are dropped; locators still quote the page (a removed run's
    /// text stays in the quote, read by nothing in `quoteMap`); a segment changed keeps no inline run.
    /// Returns `self` when no run is removed.
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
            var kept = Self.keptCharacters(of: segment.text, removing: removed.map(\.range))
            if dropLeadingSpace {
                for (offset, character) in segment.text.enumerated() where kept[offset] {
                    guard character.isWhitespace else { break }
                    kept[offset] = false
                }
            }
            segment.remove(keeping: kept)
            segment.inlineRuns = []
            guard segment.text.contains(where: { !$0.isWhitespace }) else {
                removedAtEnd = removedAtEnd || !removed.isEmpty
                continue
            }
            copy.segments.append(segment)
        }
        if let first = copy.segments.first, first.text.first?.isWhitespace == true {
            var trimmed = first.text.map { _ in true }
            for (offset, character) in first.text.enumerated() {
                guard character.isWhitespace else { break }
                trimmed[offset] = false
            }
            copy.segments[0].remove(keeping: trimmed)
        }
        if let last = copy.segments.last, last.text.last?.isWhitespace == true {
            var trimmed = last.text.map { _ in true }
            for (offset, character) in last.text.enumerated().reversed() {
                guard character.isWhitespace else { break }
                trimmed[offset] = false
            }
            copy.segments[copy.segments.count - 1].remove(keeping: trimmed)
        }
        return copy
    }

    /// Which characters of `text` stay once the characters of `ranges` go; a removal between two
    /// spaces keeps one of them.
    private static func keptCharacters(of text: String, removing ranges: [Range<Int>]) -> [Bool] {
        let characters = Array(text)
        var kept = [Bool](repeating: true, count: characters.count)
        for range in ranges {
            for offset in range where offset >= 0 && offset < characters.count { kept[offset] = false }
        }
        var afterRemoval = false
        var lastKeptIsSpace = true
        for (offset, character) in characters.enumerated() {
            if !kept[offset] {
                afterRemoval = true
                continue
            }
            if afterRemoval, character.isWhitespace, lastKeptIsSpace {
                kept[offset] = false
                continue
            }
            afterRemoval = false
            lastKeptIsSpace = character.isWhitespace
        }
        return kept
    }
}

extension TextContentElement.Segment {
    /// Keeps the characters of `text` marked in `kept` (one flag a character); the quote does not
    /// change, the map reads the removed characters' quote as read by nothing.
    mutating func remove(keeping kept: [Bool]) {
        var newText = ""
        var removedBytes: [Range<Int>] = []
        var offset = 0
        for (character, keep) in zip(text, kept) {
            let length = character.utf8.count
            if keep {
                newText.append(character)
            } else if let last = removedBytes.last, last.upperBound == offset {
                removedBytes[removedBytes.count - 1] = last.lowerBound..<(offset + length)
            } else {
                removedBytes.append(offset..<(offset + length))
            }
            offset += length
        }
        phonemes = phonemes.removing(removedBytes)
        if quoteMap.textLength == text.utf8.count {
            quoteMap = quoteMap.removingText(removedBytes)
        } else {
            quoteMap = .verbatim(newText)
        }
        text = newText
    }
}
