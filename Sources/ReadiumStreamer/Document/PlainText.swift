// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A plain text file read as a document: its bytes decoded, its text cut into paragraphs, and the
/// paragraphs laid out as an XHTML document for the content extractor (one `p` each, in order).
///
/// Paragraphs are the runs of lines between blank lines, as in most books kept as text (Project
/// Gutenberg's); in a text without any blank line, a line that ends a sentence ends its paragraph. A paragraph keeps its own line
/// breaks (a text locator's quote is the file's text), which reading collapses as white space. Pure.
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
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// The paragraphs of `text`: runs of lines between blank lines (a form feed counts as one), or where no
    /// line is blank, runs of lines each ending at a line that ends a sentence.
    public static func paragraphs(of text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: "\u{0C}", with: "") }
        let isBlank = { (line: String) in line.allSatisfy(\.isWhitespace) }
        guard let first = lines.firstIndex(where: { !isBlank($0) }), let last = lines.lastIndex(where: { !isBlank($0) }) else { return [] }
        guard lines[first...last].contains(where: isBlank) else { return joiningWrappedLines(lines[first...last]) }
        var paragraphs: [String] = []
        var current: [String] = []
        for line in lines {
            if isBlank(line) {
                if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
        return paragraphs
    }

    /// The paragraphs of a text without blank lines: a line that ends a sentence ends its paragraph, any
    /// other line goes on into the next (a text wrapped at a width, without blank lines between paragraphs).
    static func joiningWrappedLines(_ lines: ArraySlice<String>) -> [String] {
        var paragraphs: [String] = []
        var current: [String] = []
        for line in lines {
            current.append(line)
            let end = line.trimmingCharacters(in: .whitespaces).last
            if let end, ".!?:;…。！？\"'”’»)]".contains(end) {
                paragraphs.append(current.joined(separator: "\n"))
                current = []
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
        return paragraphs
    }

    /// An XHTML document with a `p` for each paragraph of `text`, in `language` when it is known.
    /// Characters XML does not allow (control characters but tab and line feed) become spaces.
    public static func xhtml(of text: String, language: String? = nil) -> Data {
        var document = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        document += #"<html xmlns="http://www.w3.org/1999/xhtml""#
        if let language { document += " xml:lang=\"\(escaped(language))\" lang=\"\(escaped(language))\"" }
        document += "><head><title></title></head><body>\n"
        for paragraph in paragraphs(of: text) {
            document += "<p>" + escaped(paragraph) + "</p>\n"
        }
        document += "</body></html>\n"
        return Data(document.utf8)
    }

    private static func escaped(_ text: String) -> String {
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
