// SPDX-License-Identifier: GPL-3.0-or-later
/// The characters (extended grapheme clusters) of a string as a table of UTF-8 offsets and first
/// scalars, for tokenizers that look at characters by position without making `Character` values.
///
/// The boundaries are the ones `String` gives: a pair of scalars that always has a break between them
/// (both in `breaksWhenPaired`, not CR LF) is decided here from the UTF-8 bytes; anything else
/// (combining marks, emoji, Hangul jamo, regional indicators, Indic scripts) asks `String.index(after:)`
/// from the last boundary. The character properties answer as `Character`'s do: from the first
/// scalar (`isLetter`, `isNumber`, `isWhitespace`, `isNewline`), from the scalar's properties when the
/// character is a single scalar and else from the `Character` itself (`isUppercase`, `isLowercase`).
/// Pure value logic: safe to call from any thread.
package struct TextGraphemes {
    package let text: String
    /// The UTF-8 offset of each character's start, and of the text's end last (`count + 1` entries).
    package let offsets: [Int]
    /// Each character's first scalar, with `multipleScalarsFlag` set when the character has more.
    private let firstScalars: [UInt32]

    private static let multipleScalarsFlag: UInt32 = 0x8000_0000

    package init(_ text: String) {
        var contiguous = text
        contiguous.makeContiguousUTF8()
        let text = contiguous
        self.text = text
        var offsets: [Int] = []
        var firstScalars: [UInt32] = []
        offsets.reserveCapacity(text.utf8.count + 1)
        firstScalars.reserveCapacity(text.utf8.count)
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var position = 0
            while position < bytes.count {
                let scalar = Self.decode(bytes, at: position)
                let next = position + Self.length(ofScalarLeadBy: bytes[position])
                offsets.append(position)
                if next == bytes.count || Self.alwaysBreaks(between: scalar, and: Self.decode(bytes, at: next)) {
                    firstScalars.append(scalar)
                    position = next
                    continue
                }
                let end = Self.characterEnd(in: text, from: position)
                firstScalars.append(end == next ? scalar : scalar | Self.multipleScalarsFlag)
                position = end
            }
        }
        offsets.append(text.utf8.count)
        self.offsets = offsets
        self.firstScalars = firstScalars
    }

    /// The number of characters.
    package var count: Int { firstScalars.count }

    /// The first scalar of character `index`.
    package func scalar(_ index: Int) -> Unicode.Scalar {
        Unicode.Scalar(firstScalars[index] & ~Self.multipleScalarsFlag)!
    }

    /// The first scalar's value of character `index`, or nil when the character has more scalars.
    package func singleScalar(_ index: Int) -> UInt32? {
        let value = firstScalars[index]
        return value & Self.multipleScalarsFlag == 0 ? value : nil
    }

    /// The `String.Index` of the start of character `index` (`count` for the end of the text).
    package func stringIndex(_ index: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offsets[index])
    }

    /// The text of characters `range`.
    package func substring(_ range: Range<Int>) -> Substring {
        text[stringIndex(range.lowerBound)..<stringIndex(range.upperBound)]
    }

    /// Character `index` as a `Character`, for the properties that depend on all its scalars.
    package func character(_ index: Int) -> Character {
        substring(index..<(index + 1)).first!
    }

    /// Whitespace as `Character.isTokenizerWhitespace` has it: the no-break spaces it adds
    /// (U+00A0, U+202F, U+2009) are white space to Unicode already.
    package func isWhitespace(_ index: Int) -> Bool {
        let value = firstScalars[index] & ~Self.multipleScalarsFlag
        if value < 0x80 { return ASCIIClass.table[Int(value)].contains(.whitespace) }
        return scalar(index).properties.isWhitespace
    }

    /// `Character.isNewline`: decided by the first scalar.
    package func isNewline(_ index: Int) -> Bool {
        switch firstScalars[index] & ~Self.multipleScalarsFlag {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `Character.isLetter`: the first scalar is alphabetic.
    package func isLetter(_ index: Int) -> Bool {
        let value = firstScalars[index] & ~Self.multipleScalarsFlag
        if value < 0x80 { return ASCIIClass.table[Int(value)].contains(.letter) }
        return scalar(index).properties.isAlphabetic
    }

    /// `Character.isNumber`: the first scalar has a numeric type.
    package func isNumber(_ index: Int) -> Bool {
        let value = firstScalars[index] & ~Self.multipleScalarsFlag
        if value < 0x80 { return ASCIIClass.table[Int(value)].contains(.number) }
        return scalar(index).properties.numericType != nil
    }

    /// `Character.isLowercase`.
    package func isLowercase(_ index: Int) -> Bool {
        guard let value = singleScalar(index) else { return character(index).isLowercase }
        if value < 0x80 { return ASCIIClass.table[Int(value)].contains(.lowercase) }
        return scalar(index).properties.isLowercase || character(index).isLowercase
    }

    /// `Character.isUppercase`.
    package func isUppercase(_ index: Int) -> Bool {
        guard let value = singleScalar(index) else { return character(index).isUppercase }
        if value < 0x80 { return ASCIIClass.table[Int(value)].contains(.uppercase) }
        return scalar(index).properties.isUppercase || character(index).isUppercase
    }

    /// Where the character starting at UTF-8 `offset` (a character boundary) ends, as `String` has it.
    private static func characterEnd(in text: String, from offset: Int) -> Int {
        let start = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        let end = text.index(after: start)
        return text.utf8.distance(from: text.utf8.startIndex, to: end)
    }

    /// Scalars that have a character break between them whenever both are in this set (Unicode's
    /// rules keep a pair together only through CR LF, combining marks, joiners, prepended marks,
    /// Hangul jamo, regional indicators and Indic conjuncts, none of which are here).
    static func breaksWhenPaired(_ value: UInt32) -> Bool {
        switch value {
        case 0x0000...0x02FF: true // Latin, with its punctuation and controls; combining marks start at U+0300
        case 0x0400...0x0482: true // Cyrillic letters, before its combining marks
        case 0x05D0...0x05EA: true // Hebrew letters (the points are marks)
        case 0x0620...0x064A: true // Arabic letters, before the harakat
        case 0x2010...0x2029: true // dashes, quotation marks, ellipsis, line and paragraph separators
        case 0x3000...0x3029: true // CJK punctuation, before its tone marks
        case 0x3041...0x3096, 0x30A1...0x30FA: true // kana, without the voicing marks
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: true // Han ideographs
        case 0xAC00...0xD7A3: true // precomposed Hangul syllables (a jamo may follow them; jamo are not here)
        case 0xFF01...0xFF9D: true // fullwidth forms, before the halfwidth voicing marks
        default: false
        }
    }

    static func alwaysBreaks(between first: UInt32, and second: UInt32) -> Bool {
        !(first == 0x0D && second == 0x0A) && breaksWhenPaired(first) && breaksWhenPaired(second)
    }

    /// The length in bytes of the UTF-8 scalar whose first byte is `byte`.
    private static func length(ofScalarLeadBy byte: UInt8) -> Int {
        if byte < 0x80 { return 1 }
        if byte < 0xE0 { return 2 }
        if byte < 0xF0 { return 3 }
        return 4
    }

    /// The scalar value at `position` of valid UTF-8 (a `String`'s storage).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32 {
        let lead = UInt32(bytes[position])
        switch length(ofScalarLeadBy: bytes[position]) {
        case 1: return lead
        case 2: return (lead & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F)
        case 3: return (lead & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F)
        default:
            return (lead & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12 | UInt32(bytes[position + 2] & 0x3F) << 6
                | UInt32(bytes[position + 3] & 0x3F)
        }
    }
}

/// The properties of the ASCII scalars, read once from Unicode's tables.
struct ASCIIClass: OptionSet {
    let rawValue: UInt8
    static let whitespace = ASCIIClass(rawValue: 1)
    static let letter = ASCIIClass(rawValue: 2)
    static let number = ASCIIClass(rawValue: 4)
    static let lowercase = ASCIIClass(rawValue: 8)
    static let uppercase = ASCIIClass(rawValue: 16)

    static let table: [ASCIIClass] = (0..<128).map { value in
        let properties = Unicode.Scalar(UInt8(value)).properties
        var result: ASCIIClass = []
        if properties.isWhitespace { result.insert(.whitespace) }
        if properties.isAlphabetic { result.insert(.letter) }
        if properties.numericType != nil { result.insert(.number) }
        if properties.isLowercase { result.insert(.lowercase) }
        if properties.isUppercase { result.insert(.uppercase) }
        return result
    }
}
