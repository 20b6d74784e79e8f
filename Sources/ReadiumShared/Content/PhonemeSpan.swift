// SPDX-License-Identifier: GPL-3.0-or-later
/// Phonemes to speak for a part of a text instead of what its letters would say: a pronunciation lexicon's
/// `<phoneme>` for a word, or an element's `ssml:ph`.
///
/// The text itself stays what is shown and quoted; a speech engine speaks `phonemes` where `range` is.
/// `range` counts UTF-8 bytes of the text that carries the span (a segment's, an utterance's).
public struct PhonemeSpan: Sendable, Hashable {
    /// The UTF-8 offsets of the text the phonemes are spoken for.
    public var range: Range<Int>
    /// The phonemes in the International Phonetic Alphabet (X-SAMPA is converted when the book is read).
    public var phonemes: String

    public init(range: Range<Int>, phonemes: String) {
        self.range = range
        self.phonemes = phonemes
    }
}

extension [PhonemeSpan] {
    /// The spans that lie whole inside `range` (UTF-8 offsets), counted from its start: those of a slice of the text.
    public func sliced(to range: Range<Int>) -> [PhonemeSpan] {
        compactMap { span in
            guard span.range.lowerBound >= range.lowerBound, span.range.upperBound <= range.upperBound else { return nil }
            return PhonemeSpan(range: (span.range.lowerBound - range.lowerBound)..<(span.range.upperBound - range.lowerBound), phonemes: span.phonemes)
        }
    }

    /// The spans moved by `offset` bytes (text put before theirs).
    public func shifted(by offset: Int) -> [PhonemeSpan] {
        map { PhonemeSpan(range: ($0.range.lowerBound + offset)..<($0.range.upperBound + offset), phonemes: $0.phonemes) }
    }

    /// The spans once the bytes in `removed` (sorted, not overlapping) are cut out of the text; a span that
    /// loses any of its own bytes is dropped (its text is no longer what the phonemes were given for).
    public func removing(_ removed: [Range<Int>]) -> [PhonemeSpan] {
        guard !removed.isEmpty else { return self }
        return compactMap { span in
            guard !removed.contains(where: { $0.overlaps(span.range) }) else { return nil }
            let before = removed.reduce(0) { $1.upperBound <= span.range.lowerBound ? $0 + $1.count : $0 }
            return PhonemeSpan(range: (span.range.lowerBound - before)..<(span.range.upperBound - before), phonemes: span.phonemes)
        }
    }
}
