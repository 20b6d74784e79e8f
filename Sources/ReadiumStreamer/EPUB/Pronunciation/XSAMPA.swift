// SPDX-License-Identifier: GPL-3.0-or-later
/// X-SAMPA, the ASCII transcription of the IPA (John Wells, 1995), turned into the IPA.
///
/// The table has every X-SAMPA symbol of the consonant, vowel, suprasegmental and diacritic charts;
/// symbols are matched longest first (`r\`` before `r\` before `r`). Pure.
enum XSAMPA {
    static let table: [String: String] = [
        // Lower case.
        "a": "a", "b": "b", "b_<": "ɓ", "c": "c", "d": "d", "d`": "ɖ", "d_<": "ɗ", "e": "e", "f": "f", "g": "ɡ", "g_<": "ɠ",
        "h": "h", "h\\": "ɦ", "i": "i", "j": "j", "j\\": "ʝ", "k": "k", "l": "l", "l`": "ɭ", "l\\": "ɺ", "m": "m", "n": "n",
        "n`": "ɳ", "o": "o", "p": "p", "p\\": "ɸ", "q": "q", "r": "r", "r`": "ɽ", "r\\": "ɹ", "r\\`": "ɻ", "s": "s", "s`": "ʂ",
        "s\\": "ɕ", "t": "t", "t`": "ʈ", "u": "u", "v": "v", "v\\": "ʋ", "w": "w", "x": "x", "x\\": "ɧ", "y": "y", "z": "z",
        "z`": "ʐ", "z\\": "ʑ",
        // Upper case.
        "A": "ɑ", "B": "β", "B\\": "ʙ", "C": "ç", "D": "ð", "E": "ɛ", "F": "ɱ", "G": "ɣ", "G\\": "ɢ", "G\\_<": "ʛ", "H": "ɥ",
        "H\\": "ʜ", "I": "ɪ", "I\\": "ᵻ", "J": "ɲ", "J\\": "ɟ", "J\\_<": "ʄ", "K": "ɬ", "K\\": "ɮ", "L": "ʎ", "L\\": "ʟ",
        "M": "ɯ", "M\\": "ɰ", "N": "ŋ", "N\\": "ɴ", "O": "ɔ", "O\\": "ʘ", "P": "ʋ", "Q": "ɒ", "R": "ʁ", "R\\": "ʀ", "S": "ʃ",
        "T": "θ", "U": "ʊ", "U\\": "ᵿ", "V": "ʌ", "W": "ʍ", "X": "χ", "X\\": "ħ", "Y": "ʏ", "Z": "ʒ",
        // Other symbols.
        ".": ".", "\"": "ˈ", "%": "ˌ", "'": "ʲ", ":": "ː", ":\\": "ˑ", "@": "ə", "@\\": "ɘ", "@`": "ɚ", "{": "æ", "}": "ʉ",
        "1": "ɨ", "2": "ø", "3": "ɜ", "3\\": "ɞ", "3`": "ɝ", "4": "ɾ", "5": "ɫ", "6": "ɐ", "7": "ɤ", "8": "ɵ", "9": "œ", "&": "ɶ",
        "?": "ʔ", "?\\": "ʕ", "<\\": "ʢ", ">\\": "ʡ", "^": "ꜛ", "!": "ꜜ", "!\\": "ǃ", "|": "|", "|\\": "ǀ", "||": "‖",
        "|\\|\\": "ǁ", "=\\": "ǂ", "-\\": "‿", "-": "",
        // Diacritics.
        "`": "˞", "~": "\u{303}", "=": "\u{329}", "_=": "\u{329}", "_~": "\u{303}", "_0": "\u{325}", "_h": "ʰ", "_w": "ʷ",
        "_j": "ʲ", "_G": "ˠ", "_?\\": "ˤ", "_e": "\u{334}", "_d": "\u{32A}", "_a": "\u{33A}", "_l": "ˡ", "_n": "ⁿ",
        "_t": "\u{324}", "_k": "\u{330}", "_v": "\u{32C}", "_^": "\u{32F}", "_}": "\u{31A}", "_\"": "\u{308}", "_+": "\u{31F}",
        "_-": "\u{320}", "_r": "\u{31D}", "_o": "\u{31E}", "_A": "\u{318}", "_q": "\u{319}", "_x": "\u{33D}", "_X": "\u{306}",
        "_c": "\u{31C}", "_O": "\u{339}", "_m": "\u{33B}", "_N": "\u{33C}", "_B": "\u{30F}", "_L": "\u{300}", "_M": "\u{304}",
        "_H": "\u{301}", "_T": "\u{30B}", "_F": "\u{302}", "_R": "\u{30C}", "_>": "ʼ",
        " ": " ",
    ]

    private static let longest = table.keys.map(\.unicodeScalars.count).max() ?? 1

    /// `text` in the IPA; nil when it has a symbol X-SAMPA does not have.
    static func ipa(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            var matched = false
            for length in stride(from: min(longest, scalars.count - index), through: 1, by: -1) {
                var key = ""
                key.unicodeScalars.append(contentsOf: scalars[index..<(index + length)])
                if let symbol = table[key] {
                    result += symbol
                    index += length
                    matched = true
                    break
                }
            }
            guard matched else { return nil }
        }
        return result
    }
}
