// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
extension Locator.Text {
    /// A quote of `text` between UTF-8 offsets `range`, taken no further than `bounds` (the selected
    /// element's text): `highlight` the text of the range with white space at its ends left out, `before`
    /// and `after` the text around it, at least `contextLength` characters each and more where needed to
    /// tell this place from another with the same words.
    ///
    /// Every part is the page's text exactly, and the first place where `before + highlight + after`
    /// occurs in the text of `bounds` is this one: what a visual navigator resolving the quote finds.
    /// Only white space at the far ends of the context is left out.
    public static func quoting(_ range: Range<Int>, of text: String, within bounds: Range<Int>, contextLength: Int = 50) -> Locator.Text {
        let clamped = min(max(range.lowerBound, bounds.lowerBound), bounds.upperBound)..<min(max(range.upperBound, range.lowerBound, bounds.lowerBound), bounds.upperBound)
        let trimmed = text.trimmingWhiteSpace(of: clamped)
        let highlight = text.utf8Slice(trimmed)
        guard !highlight.isEmpty else {
            return Locator.Text(before: contextBefore(text.utf8Slice(bounds.lowerBound..<trimmed.lowerBound), then: nil, length: contextLength),
                                highlight: nil,
                                after: contextAfter(text.utf8Slice(trimmed.upperBound..<bounds.upperBound), then: nil, length: contextLength))
        }
        let region = text.utf8Slice(bounds)
        let intended = trimmed.lowerBound - bounds.lowerBound
        let nearBefore = text.utf8Slice(bounds.lowerBound..<trimmed.lowerBound)
        let nearAfter = text.utf8Slice(trimmed.upperBound..<bounds.upperBound)
        // The context that reaches the element's ends (white space there is never quoted).
        let fullBefore = nearBefore.utf8.count - nearBefore.prefix(while: \.isWhitespace).utf8.count
        let fullAfter = nearAfter.utf8.count - nearAfter.reversed().prefix(while: \.isWhitespace).reduce(0) { $0 + $1.utf8.count }
        var length = max(contextLength, 1)
        while true {
            let before = contextBefore(nearBefore, then: nil, length: length)
            let after = contextAfter(nearAfter, then: nil, length: length)
            let beforeLength = before?.utf8.count ?? 0
            let whole = (before ?? "") + highlight + (after ?? "")
            let isFirst = region.firstUTF8Offset(of: whole).map { $0 + beforeLength } == intended
            if isFirst || beforeLength >= fullBefore && (after?.utf8.count ?? 0) >= fullAfter {
                return Locator.Text(before: before, highlight: String(highlight), after: after)
            }
            length *= 2
        }
    }

    /// This quote narrowed to the part of `highlight` between UTF-8 offsets `range` (white space at its
    /// ends left out): `before` and `after` move to its sides, up to `contextLength` characters, still
    /// the page's text exactly. Without the element's whole text the context cannot grow to tell two
    /// places apart; use `ElementText.quote(_:)` where it is known.
    public func narrowed(toHighlight range: Range<Int>, contextLength: Int = 50) -> Locator.Text {
        guard let highlight else { return self }
        let length = highlight.utf8.count
        let clamped = min(max(range.lowerBound, 0), length)..<min(max(range.upperBound, range.lowerBound, 0), length)
        let trimmed = highlight.trimmingWhiteSpace(of: clamped)
        let part = highlight.utf8Slice(trimmed)
        return Locator.Text(
            before: Self.contextBefore(highlight.utf8Slice(0..<trimmed.lowerBound), then: before, length: contextLength),
            highlight: part.isEmpty ? nil : String(part),
            after: Self.contextAfter(highlight.utf8Slice(trimmed.upperBound..<length), then: after, length: contextLength)
        )
    }

    /// The last `length` characters of `far + near`, leading white space left out; nil when blank.
    private static func contextBefore(_ near: Substring, then far: String?, length: Int) -> String? {
        var context = String(near.suffix(length))
        let count = context.count
        if count < length, let far { context = String(far.suffix(length - count)) + context }
        let trimmed = context.drop(while: \.isWhitespace)
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// The first `length` characters of `near + far`, trailing white space left out; nil when blank.
    private static func contextAfter(_ near: Substring, then far: String?, length: Int) -> String? {
        var context = String(near.prefix(length))
        let count = context.count
        if count < length, let far { context += String(far.prefix(length - count)) }
        while context.last?.isWhitespace == true { context.removeLast() }
        return context.isEmpty ? nil : context
    }
}

extension StringProtocol {
    /// `range` (UTF-8 offsets on character boundaries) without the white space at its ends; an empty
    /// range at its start when it holds only white space.
    public func trimmingWhiteSpace(of range: Range<Int>) -> Range<Int> {
        let slice = utf8Slice(range)
        let leading = slice.prefix(while: \.isWhitespace).utf8.count
        guard leading < range.count else { return range.lowerBound..<range.lowerBound }
        let trailing = slice.reversed().prefix(while: \.isWhitespace).reduce(0) { $0 + $1.utf8.count }
        return (range.lowerBound + leading)..<(range.upperBound - trailing)
    }
}

extension Substring {
    /// The UTF-8 offset of the first place `needle` occurs in this text, byte for byte (as `indexOf`
    /// finds a string in a page's text); nil when it does not.
    func firstUTF8Offset(of needle: String) -> Int? {
        var needle = needle
        return needle.withUTF8 { pattern in
            utf8.withContiguousStorageIfAvailable { bytes in bytes.firstOffset(of: pattern) }
                ?? Array(utf8).withUnsafeBufferPointer { $0.firstOffset(of: pattern) }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The offset of the first occurrence of `pattern` in these bytes (0 for an empty pattern), nil when none:
    /// `memchr` finds each place the first byte is, `memcmp` compares the rest (C's loops rather than a Swift
    /// loop over each byte, which an unoptimized build runs 30 times slower; `memmem` is not in Swift's Glibc).
    public func firstOffset(of pattern: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = pattern.first else { return 0 }
        guard count >= pattern.count, let base = baseAddress, let needle = pattern.baseAddress else { return nil }
        let last = count - pattern.count
        var start = 0
        while start <= last {
            guard let found = memchr(base + start, Int32(first), last - start + 1) else { return nil }
            let offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            if memcmp(base + offset, needle, pattern.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }
}
