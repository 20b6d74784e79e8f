// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioPlayer

/// Every error code has one word, one row in docs/events.md's table and one exit status, the same in both.
@Suite("Error codes")
struct ErrorCodeTableTests {
    /// The rows of docs/events.md's *Error codes* table: word to exit status.
    private static func documentedRows() throws -> [String: Int32] {
        let text = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
        guard let start = text.range(of: "### Error codes") else { return [:] }
        var rows: [String: Int32] = [:]
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("#") { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0].hasPrefix("`"), let status = Int32(cells[2]) else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = status
        }
        return rows
    }

    @Test func everyCodeIsDocumentedWithTheExitStatusItGives() throws {
        let rows = try Self.documentedRows()
        #expect(rows.count == RAudioErrorCode.allCases.count, "docs/events.md has \(rows.count) error codes, raudio \(RAudioErrorCode.allCases.count)")
        for code in RAudioErrorCode.allCases {
            #expect(rows[code.rawValue] == ExitStatus(code: code).rawValue, "\(code.rawValue): documented \(rows[code.rawValue].map(String.init) ?? "nowhere")")
        }
    }

    @Test func everyCodeWordIsALowerCaseWord() {
        for code in RAudioErrorCode.allCases {
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "-" }, "\(code.rawValue)")
        }
    }

    /// An error of any module exits with its code's status: the domain does not change it.
    @Test func anErrorExitsWithItsCodesStatusWhateverItsModule() {
        #expect(ExitStatus(for: OpeningError(.notFound, path: "book.epub", message: "does not exist")) == .inputNotFound)
        #expect(ExitStatus(for: ResourceError(.notFound, href: "a.mp3", message: "does not exist")) == .inputNotFound)
        #expect(ExitStatus(for: ResourceError(.remoteUnreachable, href: "http://h/a.mp3", message: "cannot connect")) == .serviceUnavailable)
        #expect(ExitStatus(for: AudioDecoderError(.corrupt, href: "a.mp3", message: "no frame")) == .badData)
        #expect(ExitStatus(for: AudioSinkError(.writeFailed, message: "disk full")) == .outputIOError)
        #expect(ExitStatus(for: CocoaError(.fileReadUnknown)) == .internalError)
    }

    /// A resource error wrapped as an opening error keeps its word, or takes the opening word for the same.
    @Test func anOpeningErrorKeepsTheWordOfTheResourceErrorUnderIt() {
        let missing = OpeningError(ResourceError(.notFound, href: "book.json", message: "does not exist"))
        #expect(missing.codeName == "not-found")
        let unreachable = OpeningError(ResourceError(.remoteUnreachable, href: "http://h/book.json", message: "cannot connect"))
        #expect(unreachable.codeName == "unavailable")
        #expect(unreachable.cause is ResourceError)
    }
}
