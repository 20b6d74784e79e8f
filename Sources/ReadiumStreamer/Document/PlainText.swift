// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A plain text file read as a document: its bytes decoded, its text cut into paragraphs, and the
/// paragraphs laid out as an XHTML document for the content extractor (a `p` or `h2` each, in order).
///
/// Paragraphs are the runs of lines between blank lines, as in most books kept as text (Project
/// Gutenberg's); in a text without any blank line, a line that ends a sentence ends its paragraph. A paragraph keeps its own line
/// breaks (a text locator's quote is the file's text), which reading collapses as white space. A one-line
/// paragraph that names a chapter with a number is a heading: a chapter of the table of contents, whose
/// fragment is its paragraph's id (`notes.txt#line-120`: the paragraph that starts at line 120, 0-based). Pure.
public enum PlainText {
    /// `data` as text: UTF-8 (a byte order mark skipped), UTF-16 after its byte order mark, else
    /// Windows-1252 (which reads Latin-1 text too); line ends as `\n`.
    public static func decode(_ data: Data) -> String {
        let bytes = [UInt8](data)
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            text = String(data: data, encoding: .utf16) ?? String(decoding: bytes, as: UTF8.self)
        } else if let utf8 = String(validating: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self) {
            text = utf8
        } else {
            text = String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) ?? ""
        }
        // Most texts have no carriage return: looking for one in the bytes is far cheaper than replacing.
        guard text.utf8.contains(0x0D) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// A paragraph of a text: its lines, and where it starts.
    public struct Paragraph: Sendable, Equatable {
        /// The 0-based line where it starts (RFC 5147's `line=N` position: before line N + 1).
        public var line: Int
        /// Its text, its own line breaks kept.
        public var text: String
        /// Whether it is Project Gutenberg's header or licence around the book (up to the `*** START OF THE
        /// PROJECT GUTENBERG EBOOK …` line, from the `*** END OF …` line on): an `aside`, which `speak` skips.
        public var isAroundTheBook: Bool

        public init(line: Int, text: String, isAroundTheBook: Bool = false) {
            (self.line, self.text, self.isAroundTheBook) = (line, text, isAroundTheBook)
        }

        /// Its element id in the document of `xhtml(of:)` (`line-12`): a toc entry's fragment and a locator's
        /// selector.
        public var id: String { "line-\(line)" }

        /// Whether it is a heading: one short line that names a chapter, part, book… with a number
        /// (`CHAPTER 1. Loomings.`, `Chapitre trois`, `BOOK IV`), or a number alone (`XIV.`, `12`); never one
        /// around the book (those are not chapters).
        public var isHeading: Bool {
            guard !isAroundTheBook, !text.utf8.contains(0x0A), text.count <= 80 else { return false }
            // Most paragraphs are not headings: a first word that is no heading word, in a paragraph of more
            // than one word, says so before the words are split.
            let fromFirstWord = text.drop(while: \.isWhitespace)
            let firstWord = fromFirstWord.prefix(while: { !$0.isWhitespace })
            if fromFirstWord.dropFirst(firstWord.count).contains(where: { !$0.isWhitespace }),
               !PlainText.headingWords.contains(firstWord.lowercased()) {
                return false
            }
            let words = text.split(whereSeparator: \.isWhitespace)
            guard let first = words.first, text.count <= 80 else { return false }
            let number = { (word: Substring) -> Bool in
                let bare = word.trimmingCharacters(in: .punctuationCharacters).lowercased()
                return !bare.isEmpty && (bare.allSatisfy(\.isNumber) || PlainText.isRomanNumeral(bare.uppercased()) || PlainText.numberWords.contains(bare))
            }
            if words.count == 1 {
                let bare = first.trimmingCharacters(in: .punctuationCharacters)
                return bare.count <= 6 && (!bare.isEmpty && bare.allSatisfy(\.isNumber) || PlainText.isRomanNumeral(bare))
            }
            // `PART THE FIRST`
            let numeral = words[1].lowercased() == "the" && words.count > 2 ? words[2] : words[1]
            // A long title is a title after a numeral that a stop ends (`Chapter 56. Of the Less Erroneous
            // Pictures of Whales, and the True`), not a sentence (`Chapter 3 was the longest of them all`).
            guard words.count <= 8 || numeral.last.map({ ".:—".contains($0) }) == true else { return false }
            return PlainText.headingWords.contains(first.lowercased()) && number(numeral)
        }
    }

    /// Whether `text` is a Roman numeral in capitals, well formed (`XIV`, not `CIVIL`).
    static func isRomanNumeral(_ text: String) -> Bool {
        !text.isEmpty && text.wholeMatch(of: /M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})/) != nil
    }

    /// The words that begin a heading when a number follows them.
    static let headingWords: Set<String> = [
        "chapter", "book", "part", "volume", "section", "letter", "stave", "act", "scene", "canto", "chapitre", "livre", "partie",
        "tome", "kapitel", "teil", "buch", "capítulo", "capitulo", "capitolo", "libro", "parte", "hoofdstuk", "deel",
    ]
    /// Numbers written as words, in the languages of `headingWords`.
    static let numberWords: Set<String> = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
        "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "first", "second", "third",
        "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last", "premier", "première", "un", "deux", "trois",
        "quatre", "cinq", "sept", "huit", "neuf", "dix", "eins", "zwei", "drei", "uno", "dos", "tres", "due", "tre",
    ]

    /// The paragraphs of `text`: runs of lines between blank lines (a form feed counts as one), or where no
    /// line is blank, runs of lines each ending at a line that ends a sentence.
    public static func paragraphs(of text: String) -> [Paragraph] {
        // Split at line feeds in the UTF-8 bytes: a line feed is always a character of its own.
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { bytes in
            let line = String(Substring(bytes))
            return line.utf8.contains(0x0C) ? line.replacingOccurrences(of: "\u{0C}", with: "") : line
        }
        let isBlank = { (line: String) in line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } || line.allSatisfy(\.isWhitespace) }
        guard let first = lines.firstIndex(where: { !isBlank($0) }), let last = lines.lastIndex(where: { !isBlank($0) }) else { return [] }
        let hasBlankLines = lines[first...last].contains(where: isBlank)
        var paragraphs: [Paragraph] = []
        var current: [String] = []
        var start = first
        for index in first...last {
            let line = lines[index]
            if hasBlankLines ? isBlank(line) : false {
                if !current.isEmpty { paragraphs.append(Paragraph(line: start, text: current.joined(separator: "\n"))) }
                current = []
                continue
            }
            if current.isEmpty { start = index }
            current.append(line)
            // Without blank lines, a line that ends a sentence ends its paragraph.
            if !hasBlankLines, let end = line.trimmingCharacters(in: .whitespaces).last, ".!?:;…。！？\"'”’»)]".contains(end) {
                paragraphs.append(Paragraph(line: start, text: current.joined(separator: "\n")))
                current = []
            }
        }
        if !current.isEmpty { paragraphs.append(Paragraph(line: start, text: current.joined(separator: "\n"))) }
        let marker = { (paragraph: Paragraph, word: String) in
            guard paragraph.text.hasPrefix("***") else { return false }
            let text = paragraph.text.uppercased()
            return text.hasPrefix("***") && text.contains("\(word) OF") && text.contains("PROJECT GUTENBERG")
        }
        if let start = paragraphs.firstIndex(where: { marker($0, "START") }) {
            for index in 0...start { paragraphs[index].isAroundTheBook = true }
        }
        if let end = paragraphs.lastIndex(where: { marker($0, "END") }) {
            for index in end..<paragraphs.count { paragraphs[index].isAroundTheBook = true }
        }
        return paragraphs
    }

    /// An XHTML document with an element for each paragraph of `text` (an `h2` for a heading, else a `p`),
    /// its id `Paragraph.id`, those around the book in `aside`s, in `language` when it is known.
    /// Characters XML does not allow (control characters but tab and line feed) become spaces.
    public static func xhtml(of text: String, language: String? = nil) -> Data {
        var document = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        document += #"<html xmlns="http://www.w3.org/1999/xhtml""#
        if let language { document += " xml:lang=\"\(escaped(language))\" lang=\"\(escaped(language))\"" }
        document += "><head><title></title></head><body>\n"
        var inAside = false
        for paragraph in paragraphs(of: text) {
            if paragraph.isAroundTheBook != inAside {
                document += inAside ? "</aside>\n" : "<aside>\n"
                inAside.toggle()
            }
            let name = paragraph.isHeading ? "h2" : "p"
            document += "<\(name) id=\"\(paragraph.id)\">" + escaped(paragraph.text) + "</\(name)>\n"
        }
        if inAside { document += "</aside>\n" }
        document += "</body></html>\n"
        return Data(document.utf8)
    }

    private static func escaped(_ text: String) -> String {
        // Most paragraphs have nothing to escape: no markup character, no control character (C0 but tab and
        // line feed; DEL; C1, which starts with 0xC2 in UTF-8) and no noncharacter (which starts with 0xEF).
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 ? !(byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x7F || byte == 0xC2 || byte == 0xEF)
                : byte == 0x09 || byte == 0x0A
        }
        if plain { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
