// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits a text into units (words, sentences or paragraphs) and returns their ranges.
///
/// Every returned range is non-empty, trimmed of surrounding whitespace and never whitespace only, in
/// text order. Pure value logic: safe to call from any thread.
public protocol TextTokenizer: Sendable {
    /// The ranges of the units of `text`, in order.
    func tokenize(_ text: String) -> [Range<String.Index>]
}

/// The unit a `TextTokenizer` splits text into.
public enum TextUnit: String, Sendable, CaseIterable {
    case word
    case sentence
    case paragraph
}

/// Makes the tokenizer for a unit and a language; plug in another to support other rules.
public typealias TextTokenizerFactory = @Sendable (TextUnit, Language?) -> any TextTokenizer

/// The default tokenizers of raudio: rules of its own, language-aware (English, French and other
/// Latin-script languages, CJK, Arabic, Urdu, Hebrew, Devanagari).
///
/// ICU sentence segmentation through Foundation is not used: `enumerateSubstrings(options: .bySentences)`
/// is marked unavailable in swift-corelibs-foundation (checked with Swift 6.3 on Linux).
public let defaultTextTokenizerFactory: TextTokenizerFactory = { unit, language in
    switch unit {
    case .word: WordTokenizer(language: language)
    case .sentence: SentenceTokenizer(language: language)
    case .paragraph: ParagraphTokenizer()
    }
}

extension TextTokenizer {
    /// The units of `text` as strings.
    public func substrings(of text: String) -> [Substring] {
        tokenize(text).map { text[$0] }
    }
}

extension Character {
    /// Whitespace including the no-break spaces French typography puts before `!`, `?`, `»`.
    var isTokenizerWhitespace: Bool {
        isWhitespace || self == "\u{00A0}" || self == "\u{202F}" || self == "\u{2009}"
    }
}

/// Trims whitespace off `range` of `text`; nil when nothing is left.
func trimmedRange(_ range: Range<String.Index>, in text: String) -> Range<String.Index>? {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, text[lower].isTokenizerWhitespace { lower = text.index(after: lower) }
    while upper > lower {
        let before = text.index(before: upper)
        guard text[before].isTokenizerWhitespace else { break }
        upper = before
    }
    return lower < upper ? lower..<upper : nil
}
