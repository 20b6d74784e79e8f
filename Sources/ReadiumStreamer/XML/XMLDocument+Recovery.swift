// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension XMLDocument {
    /// HTML elements that never have content: an unclosed one is closed right after its start tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    /// The end of the warning of a parse that kept the document up to an error it could not repair.
    static let keptUpToTheError = "kept the document up to this point, open elements closed"

    /// The end of the warning of a parse that flattened elements nested too deep.
    static let flattenedElementsKept = "(their text kept, their tags left out)"

    /// Parses `bytes`, repairing end-tag mismatches and re-parsing, else keeping the tree up to the error
    /// (or, unless `keepsPartial`, throwing it).
    static func recoveringParse(
        _ bytes: [UInt8], href: String, keepsPartial: Bool = true, warnings: inout [ParsingWarning]
    ) throws(XMLError) -> XMLElement {
        var bytes = bytes
        var repairs = 0
        while true {
            let outcome = XMLTreeBuilder.build(bytes)
            guard let failure = outcome.failure else {
                guard let root = outcome.root else { throw XMLError(.xmlEmpty, href: href, message: "has no root element") }
                if let warning = flatteningWarning(outcome.flattened, href: href) { warnings.append(warning) }
                return root
            }
            if repairs < maximumRepairs, let repaired = repair(bytes, failure: failure, href: href, warnings: &warnings) {
                bytes = repaired
                repairs += 1
                continue
            }
            guard keepsPartial, let root = outcome.root else {
                throw XMLError(.xmlMalformed, href: href, line: failure.line, column: failure.column, message: failure.message)
            }
            if let warning = flatteningWarning(outcome.flattened, href: href) { warnings.append(warning) }
            warnings.append(ParsingWarning(
                source: href, path: "line \(failure.line), column \(failure.column)",
                message: "\(failure.message); \(keptUpToTheError)"))
            return root
        }
    }

    /// The one warning of a document whose elements nested deeper than `XMLTreeBuilder.maximumDepth` were
    /// flattened, naming where the first one starts; nil when none was.
    static func flatteningWarning(_ flattened: XMLTreeBuilder.Flattened?, href: String) -> ParsingWarning? {
        guard let flattened else { return nil }
        let elements = flattened.count == 1 ? "1 element" : "\(flattened.count) elements"
        return ParsingWarning(
            source: href, path: "line \(flattened.firstLine)",
            message: "\(elements) nested more than \(XMLTreeBuilder.maximumDepth) levels deep flattened into their ancestor at that depth \(flattenedElementsKept)")
    }

    /// `bytes` with the mismatched end tag of `failure` fixed, or nil when this error is not a mismatch
    /// that can be located.
    private static func repair(
        _ bytes: [UInt8], failure: XMLTreeBuilder.Failure, href: String, warnings: inout [ParsingWarning]
    ) -> [UInt8]? {
        guard failure.code == 76, let open = failure.openElements.last,
              let errorOffset = offset(line: failure.line, column: failure.column, in: bytes),
              let endTag = endTag(before: errorOffset, in: bytes)
        else { return nil }
        let place = "line \(failure.line), column \(failure.column)"
        var repaired = bytes
        if voidElements.contains(open.qualifiedName.lowercased()),
           let atStart = offset(line: open.line, column: open.column, in: bytes),
           let startTagEnd = bytes[atStart...].firstIndex(of: UInt8(ascii: ">")), startTagEnd < endTag.range.lowerBound {
            // libxml2 reports a start tag at the column of its closing '>'.
            let afterStart = startTagEnd + 1
            repaired.insert(contentsOf: Array("</\(open.qualifiedName)>".utf8), at: afterStart)
            warnings.append(ParsingWarning(source: href, path: place, message: "closed the empty element <\(open.qualifiedName)> (line \(open.line)) left open"))
            return repaired
        }
        guard endTag.name != open.qualifiedName else { return nil }
        if let matching = failure.openElements.lastIndex(where: { $0.qualifiedName == endTag.name }) {
            let unclosed = failure.openElements[(matching + 1)...].reversed()
            let closing = unclosed.map { "</\($0.qualifiedName)>" }.joined()
            repaired.insert(contentsOf: Array(closing.utf8), at: endTag.range.lowerBound)
            let names = unclosed.map { "<\($0.qualifiedName)> (line \($0.line))" }.joined(separator: ", ")
            warnings.append(ParsingWarning(source: href, path: place, message: "closed \(names) left open before </\(endTag.name)>"))
        } else {
            repaired.removeSubrange(endTag.range)
            warnings.append(ParsingWarning(source: href, path: place, message: "dropped the end tag </\(endTag.name)> that closes no open element"))
        }
        return repaired
    }

    /// The byte offset of a 1-based line and column (counted in characters), clamped to the line's end.
    static func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        guard line >= 1 else { return nil }
        var index = 0
        var currentLine = 1
        while currentLine < line {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = newline + 1
            currentLine += 1
        }
        var remaining = max(column - 1, 0)
        while remaining > 0, index < bytes.count, bytes[index] != 0x0A {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }  // continuation bytes
            remaining -= 1
        }
        return index
    }

    /// The last end tag (`</name ...>`) that starts before `offset`.
    private static func endTag(before offset: Int, in bytes: [UInt8]) -> (name: String, range: Range<Int>)? {
        var start = min(offset, bytes.count) - 2
        while start >= 0 {
            if bytes[start] == UInt8(ascii: "<") && bytes[start + 1] == UInt8(ascii: "/") { break }
            start -= 1
        }
        guard start >= 0 else { return nil }
        var nameEnd = start + 2
        while nameEnd < bytes.count, ![UInt8(ascii: ">"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameEnd]) { nameEnd += 1 }
        guard let close = bytes[nameEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        return (String(decoding: bytes[(start + 2)..<nameEnd], as: UTF8.self), start..<(close + 1))
    }
}
