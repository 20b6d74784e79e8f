// SPDX-License-Identifier: GPL-3.0-or-later
/// IPA phonemes (a pronunciation lexicon's, `ssml:ph`) written in eSpeak NG's own phoneme mnemonics, which eSpeak NG
/// speaks when they stand between `[[` and `]]` in text synthesized with `espeakPHONEMES`.
///
/// eSpeak NG takes no IPA as input (nor SSML `<phoneme>`): its phoneme input is its own ASCII names, close to the
/// Kirshenbaum alphabet, defined per language in its `phsource/ph_*` files. The table below is English's
/// (`ph_english`, which `en-us`, `en-gb` and the other English voices extend); it was checked by speaking every
/// mapped word of georgia-pls-ssml with `en-us` and reading back eSpeak NG's own phoneme trace
/// (`espeak_SetPhonemeTrace`). X-SAMPA reaches it already turned into the IPA (ReadiumStreamer's `XSAMPA`).
///
/// | IPA | eSpeak NG | note |
/// |---|---|---|
/// | `ˈ` `ˌ` | `'` `,` | stress marks; eSpeak NG moves each to the vowel after it |
/// | `p b t d k ɡ/g f v s z h m n l w` | same | |
/// | `θ ð ʃ ʒ ŋ tʃ dʒ` (tie bars allowed) | `T D S Z N tS dZ` | |
/// | `r ɹ`, `j`, `ʔ`, `ɾ`, `x`, `ɫ`, `ʍ` | `r`, `j`, `?`, `t#`, `x`, `l`, `w` | |
/// | `y` | `j` | English only: American dictionaries (and this corpus's lexicon) write the /j/ of *cube* as `y` |
/// | `n̩ l̩ m̩` | `n- l- m-` | syllabic consonants |
/// | `æ a ɛ e ɪ ʌ ʊ ɒ ə ɐ ᵻ ɨ` | `a a E E I V U 0 @ @ I I` | short vowels |
/// | `i iː`, `u uː` | `i:`, `u:` (`i` at a word's end: `i`, the vowel of *happy*) | |
/// | `ɑ ɑː ɔ ɔː ɜ ɜː ɝ o` | `A: A: O: O: 3: 3: 3: oU` | |
/// | `ɚ`, `ər` | `3` | the r-coloured schwa |
/// | `eɪ aɪ aʊ ɔɪ oʊ əʊ` | `eI aI aU OI oU @U` | diphthongs |
/// | `ɪə ɛə eə ʊə` | `I@ e@ e@ U@` | centring diphthongs |
/// | `ɑr ɔr ɛr ɪr ʊr ɜr` (no vowel after the r) | `A@ O@ e@ I@ U@ 3:` | r-coloured vowels of rhotic English |
/// | `ː . ‿`, combining marks | dropped | length is in the vowel's name; eSpeak NG has no syllable marks |
///
/// Anything else (a click, a vowel English lacks) has no English phoneme: the whole span is then spoken as
/// written, with a warning. Pure.
enum ESpeakPhonemeMapping {
    /// Symbols of several characters, tried before single ones (longest first).
    private static let sequences: [(ipa: String, espeak: String)] = [
        ("t͡ʃ", "tS"), ("d͡ʒ", "dZ"), ("tʃ", "tS"), ("dʒ", "dZ"),
        ("eɪ", "eI"), ("aɪ", "aI"), ("aʊ", "aU"), ("ɔɪ", "OI"), ("oʊ", "oU"), ("əʊ", "@U"),
        ("ɪə", "I@"), ("ɛə", "e@"), ("eə", "e@"), ("ʊə", "U@"),
        ("iː", "i:"), ("uː", "u:"), ("ɑː", "A:"), ("ɔː", "O:"), ("ɜː", "3:"),
        ("n̩", "n-"), ("l̩", "l-"), ("m̩", "m-"),
    ]

    /// Vowels followed by an r that ends the syllable (no vowel after it): rhotic English's r-coloured vowels.
    private static let rColoured: [(ipa: String, espeak: String)] = [
        ("ɑːr", "A@"), ("ɔːr", "O@"), ("ɜːr", "3:"), ("ɛər", "e@"), ("eər", "e@"), ("ɪər", "I@"), ("ʊər", "U@"),
        ("ɑr", "A@"), ("ɔr", "O@"), ("ɛr", "e@"), ("ɪr", "I@"), ("ʊr", "U@"), ("ɜr", "3:"), ("ər", "3"),
        ("ɑːɹ", "A@"), ("ɔːɹ", "O@"), ("ɑɹ", "A@"), ("ɔɹ", "O@"), ("ɛɹ", "e@"), ("ɪɹ", "I@"), ("ʊɹ", "U@"), ("ɜɹ", "3:"), ("əɹ", "3"),
    ]

    private static let singles: [Character: String] = [
        "ˈ": "'", "ˌ": ",", " ": " ",
        "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "ɡ": "g", "g": "g", "f": "f", "v": "v", "s": "s", "z": "z",
        "h": "h", "m": "m", "n": "n", "l": "l", "w": "w", "θ": "T", "ð": "D", "ʃ": "S", "ʒ": "Z", "ŋ": "N",
        "r": "r", "ɹ": "r", "j": "j", "ʔ": "?", "ɾ": "t#", "x": "x", "ɫ": "l", "ʍ": "w",
        "æ": "a", "a": "a", "ɛ": "E", "e": "E", "ɪ": "I", "ʌ": "V", "ʊ": "U", "ɒ": "0", "ə": "@", "ɐ": "@", "ᵻ": "I", "ɨ": "I",
        "u": "u:", "ɑ": "A:", "ɔ": "O:", "ɜ": "3:", "ɝ": "3:", "o": "oU", "ɚ": "3",
    ]

    private static let vowels: Set<Character> = ["a", "e", "i", "o", "u", "æ", "ɛ", "ɪ", "ʌ", "ʊ", "ɒ", "ə", "ɐ", "ɑ", "ɔ", "ɜ", "ɝ", "ɚ", "ᵻ", "ɨ", "y"]

    /// Marks eSpeak NG has no use for: length (in its vowel names), syllable breaks, linking, tie bars.
    private static let dropped: Set<Unicode.Scalar> = ["ː", "ˑ", ".", "‿", "\u{361}", "\u{35C}"]

    /// `ipa` in eSpeak NG's mnemonics for a voice of `languageCode` (English's table; `y` is /j/ in English
    /// only), words separated by a space; nil when a symbol has no eSpeak NG phoneme.
    static func mnemonics(forIPA ipa: String, languageCode: String) -> String? {
        phonemes(forIPA: ipa, languageCode: languageCode).map { $0.map { $0.joined() }.joined(separator: " ") }
    }

    /// The words of `ipa`, each a list of eSpeak NG phoneme names and stress marks (`'`, `,`); nil when a symbol has
    /// no eSpeak NG phoneme.
    static func phonemes(forIPA ipa: String, languageCode: String) -> [[String]]? {
        let isEnglish = languageCode.lowercased().hasPrefix("en")
        let characters = Array(ipa.withIPAStressMarks)
        var words: [[String]] = [[]]
        var index = 0
        func matches(_ symbol: String) -> Bool {
            let symbolCharacters = Array(symbol)
            guard index + symbolCharacters.count <= characters.count else { return false }
            return Array(characters[index..<(index + symbolCharacters.count)]) == symbolCharacters
        }
        func add(_ name: String) {
            if name == " " {
                if !words[words.count - 1].isEmpty { words.append([]) }
            } else {
                words[words.count - 1].append(name)
            }
        }
        scan: while index < characters.count {
            let character = characters[index]
            for (symbol, mnemonic) in rColoured where matches(symbol) {
                let after = index + symbol.count
                if after < characters.count, vowels.contains(characters[after]) { continue }
                add(mnemonic)
                index = after
                continue scan
            }
            for (symbol, mnemonic) in sequences where matches(symbol) {
                add(mnemonic)
                index += symbol.count
                continue scan
            }
            index += 1
            if character == "i" {
                // The vowel of *happy* at a word's end, else that of *fleece*.
                let atEnd = index == characters.count || characters[index] == " "
                add(atEnd ? "i" : "i:")
            } else if character == "y" {
                guard isEnglish else { return nil }
                add("j")
            } else if let mnemonic = singles[character] {
                add(mnemonic)
            } else if character.unicodeScalars.allSatisfy({ dropped.contains($0) || $0.properties.generalCategory == .nonspacingMark }) {
                continue
            } else if let base = character.unicodeScalars.first.map(Character.init), let mnemonic = singles[base],
                      character.unicodeScalars.dropFirst().allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) {
                // A symbol with a diacritic eSpeak NG has no use for (aspiration, nasalization): its base.
                add(mnemonic)
            } else {
                return nil
            }
        }
        if words.last?.isEmpty == true { words.removeLast() }
        return words.isEmpty ? nil : words
    }
}

extension String {
    /// The text with any apostrophe-like stress marks written as the IPA's (`'` for `ˈ`, as some books type them).
    fileprivate var withIPAStressMarks: String {
        String(map { $0 == "'" ? "ˈ" : $0 })
    }
}
