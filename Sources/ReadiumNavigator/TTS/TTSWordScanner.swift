// SPDX-License-Identifier: GPL-3.0-or-later
/// Finds the whole words of an utterance's text, with their offsets in Unicode scalars.
///
/// A word is a run of letters, digits and combining marks; an apostrophe or hyphen between letters
/// stays inside it (`l'école`, `well-known`), and so does a `.` or `,` between digits (`1,234`, `3.5`).
/// Han, hiragana and katakana runs are split where the script changes (`漢字です` -> `漢字`, `です`),
/// the closest to words that is possible without a dictionary. Pure; used to turn a TTS engine's
/// word events (scalar positions) into `Range<String.Index>`.
public enum TTSWordScanner {
    /// A word of the text.
    public struct Word: Sendable, Hashable {
        public var range: Range<String.Index>
        /// The offset of the word's first scalar, counted from 0.
        public var scalarStart: Int
        /// The offset just past the word's last scalar.
        public var scalarEnd: Int
    }

    private enum Script: Equatable {
        case han, hiragana, katakana, other
    }

    /// The words of `text`, in order.
    public static func words(in text: String) -> [Word] {
        let scalars = text.unicodeScalars
        var indices: [String.Index] = []
        var values: [Unicode.Scalar] = []
        indices.reserveCapacity(text.utf8.count)
        values.reserveCapacity(text.utf8.count)
        for index in scalars.indices {
            indices.append(index)
            values.append(scalars[index])
        }
        indices.append(text.endIndex)

        var words: [Word] = []
        var position = 0
        while position < values.count {
            guard isWordScalar(values[position]) else {
                position += 1
                continue
            }
            let start = position
            let script = script(of: values[position])
            position += 1
            while position < values.count {
                let scalar = values[position]
                if isMark(scalar) {
                    position += 1
                } else if isWordScalar(scalar) {
                    guard Self.script(of: scalar) == script else { break }
                    position += 1
                } else if position + 1 < values.count, joins(scalar, previous: values[position - 1], next: values[position + 1]) {
                    position += 2
                } else {
                    break
                }
            }
            words.append(Word(range: indices[start]..<indices[position], scalarStart: start, scalarEnd: position))
        }
        return words
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || isMark(scalar)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType != nil
    }

    /// Whether `scalar` between `previous` and `next` keeps them in one word.
    private static func joins(_ scalar: Unicode.Scalar, previous: Unicode.Scalar, next: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "\u{2019}", "\u{02BC}", "-", "\u{2010}", "\u{2011}":
            isWordScalar(next) && !isMark(next)
        case ".", ",":
            isDigit(previous) && isDigit(next)
        default:
            false
        }
    }

    private static func script(of scalar: Unicode.Scalar) -> Script {
        if scalar.properties.isIdeographic { return .han }
        switch scalar.value {
        case 0x3040...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .katakana
        default: return .other
        }
    }
}
