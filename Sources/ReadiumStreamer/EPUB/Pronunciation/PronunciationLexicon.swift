// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A W3C Pronunciation Lexicon (PLS 1.0) of an EPUB: words (graphemes) and how to say them, as phonemes or
/// as other text to read (an alias).
///
/// EPUB 3's text-to-speech enhancements link lexicons from the package (manifest items of type
/// `application/pls+xml`) and from content documents (`<link rel="pronunciation" hreflang=...>`); a lexicon
/// applies to the text in its language (`xml:lang` of its root, else the link's `hreflang`). Phonemes are kept
/// in the IPA (`PhoneticAlphabet`). Lenient: a lexeme that cannot be used is left out with a warning naming the
/// file and the entry; the rest of the lexicon still applies. Value type, any thread.
struct PronunciationLexicon: Sendable {
    static let namespace = "http://www.w3.org/2005/01/pronunciation-lexicon"
    static let mediaType = "application/pls+xml"

    /// How a lexeme says its graphemes.
    enum Pronunciation: Sendable, Hashable {
        /// Phonemes in the IPA.
        case phonemes(String)
        /// Text read instead of the grapheme (the page still shows the grapheme).
        case alias(String)
    }

    var href: String
    /// The language of the text it applies to; nil: any.
    var language: Language?
    /// Its `alphabet` as written (the default of its phonemes, and of `ssml:ph` in the documents that use it).
    var alphabetName: String?
    /// Each grapheme (as written in the lexicon) and its pronunciation.
    private(set) var entries: [String: Pronunciation] = [:]
    /// How many characters the graphemes that begin with a letter or digit have, longest first: the lengths to try
    /// where a word starts.
    private var wordLengths: [Int] = []
    /// The same for the graphemes that begin with another character (`℔`): tried at every character.
    private var symbolLengths: [Int] = []

    init(href: String, language: Language?, entries: [String: Pronunciation]) {
        self.href = href
        self.language = language
        self.entries = entries
        wordLengths = Set(entries.keys.filter { $0.first.map(Self.isWordCharacter) == true }.map(\.count)).sorted(by: >)
        symbolLengths = Set(entries.keys.filter { $0.first.map(Self.isWordCharacter) == false }.map(\.count)).sorted(by: >)
    }

    /// The lexicon in `document` (the file at `href`), with `fallbackLanguage` (a link's `hreflang`) when its
    /// root declares none; nil, with a warning, when it is not a PLS lexicon.
    static func parse(_ document: XMLDocument, fallbackLanguage: Language?, warnings: inout [ParsingWarning]) -> PronunciationLexicon? {
        let href = document.href
        let root = document.root
        guard root.localName == "lexicon", root.namespaceURI == namespace || root.namespaceURI == nil else {
            warnings.append(ParsingWarning(source: href, path: root.qualifiedName,
                                           message: "is not a pronunciation lexicon (its root is not a PLS <lexicon>); its words are spoken as written", kind: .pronunciation))
            return nil
        }
        let language = root.declaredLanguage.flatMap { $0.isEmpty ? nil : Language(code: $0) } ?? fallbackLanguage
        let defaultAlphabetName = root.attribute("alphabet")
        var entries: [String: Pronunciation] = [:]
        for (index, lexeme) in root.children("lexeme").enumerated() {
            let graphemes = lexeme.children("grapheme").map { $0.textContent.trimmingWhiteSpace() }.filter { !$0.isEmpty }
            let path = "lexeme[\(index + 1)]" + (graphemes.first.map { " (\($0))" } ?? "")
            func warn(_ message: String) {
                warnings.append(ParsingWarning(source: href, path: path, message: message, kind: .pronunciation))
            }
            guard !graphemes.isEmpty else {
                warn("has no grapheme; left out")
                continue
            }
            let candidates = lexeme.childElements.filter { $0.localName == "phoneme" || $0.localName == "alias" }
            guard let chosen = candidates.first(where: { $0.attribute("prefer") == "true" }) ?? candidates.first else {
                warn("has neither <phoneme> nor <alias>; spoken as written")
                continue
            }
            let value = chosen.textContent
            let pronunciation: Pronunciation
            if chosen.localName == "alias" {
                let alias = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                guard !alias.isEmpty else {
                    warn("has an empty <alias>; spoken as written")
                    continue
                }
                pronunciation = .alias(alias)
            } else {
                let alphabetName = chosen.attribute("alphabet") ?? defaultAlphabetName ?? "ipa"
                guard let alphabet = PhoneticAlphabet(name: alphabetName) else {
                    warn("its phonemes are in the alphabet \"\(alphabetName)\", which raudio does not know (only ipa and x-sampa); spoken as written")
                    continue
                }
                guard let ipa = alphabet.ipa(value) else {
                    warn("its phonemes \"\(value.trimmingWhiteSpace())\" are not \(alphabetName); spoken as written")
                    continue
                }
                pronunciation = .phonemes(ipa)
            }
            for grapheme in graphemes where entries[grapheme] == nil { entries[grapheme] = pronunciation }
        }
        var lexicon = PronunciationLexicon(href: href, language: language, entries: entries)
        lexicon.alphabetName = defaultAlphabetName
        return lexicon
    }

    /// Whether the lexicon applies to text in `language`: same base language, or either unknown.
    func applies(to language: Language?) -> Bool {
        guard let own = self.language, let language else { return true }
        return own.baseCode.lowercased() == language.baseCode.lowercased()
    }

    /// The graphemes of this lexicon in `text`, in order, without overlaps (the longest at each place).
    ///
    /// A grapheme matches whole words only (no letter or digit just before or after it), exactly as written or
    /// with its first letter in the other case (`Bauxite` at the start of a sentence for `bauxite`, `Geol.` for
    /// `geol.`): PLS leaves matching to the processor, and a lexicon of lower-case words is meant for them
    /// capitalized too.
    func matches(in text: String) -> [(range: Range<String.Index>, pronunciation: Pronunciation)] {
        guard !entries.isEmpty else { return [] }
        var result: [(range: Range<String.Index>, pronunciation: Pronunciation)] = []
        var index = text.startIndex
        var previous: Character?
        while index < text.endIndex {
            let character = text[index]
            if let found = match(in: text, at: index, lengths: previous.map(Self.isWordCharacter) == true ? symbolLengths : wordLengths + symbolLengths) {
                let end = found.end
                result.append((index..<end, found.pronunciation))
                previous = text[text.index(before: end)]
                index = end
                continue
            }
            previous = character
            index = text.index(after: index)
        }
        return result
    }

    /// The longest grapheme of one of `lengths` starting at `index` of `text` that ends a word, and its pronunciation.
    private func match(in text: String, at index: String.Index, lengths: [Int]) -> (end: String.Index, pronunciation: Pronunciation)? {
        for length in lengths {
            guard let end = text.index(index, offsetBy: length, limitedBy: text.endIndex) else { continue }
            let candidate = String(text[index..<end])
            if let last = candidate.last, Self.isWordCharacter(last), end < text.endIndex, Self.isWordCharacter(text[end]) { continue }
            if let pronunciation = entries[candidate] ?? entries[Self.otherCaseOfFirst(candidate)] { return (end, pronunciation) }
        }
        return nil
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// `word` with its first character in the other case (`Bauxite` <-> `bauxite`).
    private static func otherCaseOfFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        let swapped = first.isUppercase ? first.lowercased() : first.uppercased()
        return swapped + word.dropFirst()
    }
}
