// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// docs/SECURITY.md says a DOCTYPE with an internal subset (where entities are declared) is refused (issue #51:
/// "a DOCTYPE declaring entities is refused" was bypassed three ways). Each disguise is refused by `raudio text`
/// of a lone page and `raudio info` of a book whose package document carries it, naming the file; nothing expands.
@Suite(.serialized) struct SecurityXMLEntityTests {
    static let expanded = "ENTITY-EXPANDED"

    static let disguisedSubsets: [String] = [
        "<!-- <!DOCTYPE x> --><!DOCTYPE html [<!ENTITY secret \"\(expanded)\">]>",
        "<!DOCTYPE html [<!-- ' --><!ENTITY secret \"\(expanded)\"><!-- ' -->]>",
        "<!DOCTYPE html [<!-- ] --><!ENTITY secret \"\(expanded)\">]>",
        "<!DOCTYPE html [<!ENTITY % p \"<!ENTITY secret '\(expanded)'>\"> %p;]>",
        "<!doctype html [<!ENTITY secret \"\(expanded)\">]>",
    ]

    @Test(arguments: disguisedSubsets.indices) func aLonePageWithADisguisedSubsetIsRefused(index: Int) throws {
        let folder = try TemporaryDirectory()
        let page = folder.url.appendingPathComponent("page.xhtml")
        try Data((Self.disguisedSubsets[index] + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>a &secret; b</p></body></html>").utf8)
            .write(to: page)
        let result = try ProcessRunner.raudio(["text", page.path], timeout: 60)
        let all = result.standardOutput + result.standardError
        #expect(!all.contains(Self.expanded), "\(all.prefix(600))")
        #expect(result.standardError.contains("page.xhtml") && result.standardError.contains("internal subset"), "\(result.standardError.prefix(600))")
    }

    @Test(arguments: disguisedSubsets.indices) func aPackageDocumentWithADisguisedSubsetIsRefused(index: Int) throws {
        let book = try TestBooks.epub(pages: [("chapter.xhtml", "application/xhtml+xml", TestBooks.xhtml(["Shallow text."]))], language: "en")
        defer { try? FileManager.default.removeItem(at: book) }
        let opf = book.appendingPathComponent("EPUB/package.opf")
        var source = try String(contentsOf: opf, encoding: .utf8)
        source = source.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"utf-8\"?>", with: "")
        source = Self.disguisedSubsets[index] + source.replacingOccurrences(of: "<dc:title>Test book", with: "<dc:title>Test book &secret;")
        try Data(source.utf8).write(to: opf)
        let result = try ProcessRunner.raudio(["info", book.path], timeout: 60)
        #expect(result.status != 0)
        let all = result.standardOutput + result.standardError
        #expect(!all.contains(Self.expanded), "\(all.prefix(600))")
        #expect(result.standardError.contains("EPUB/package.opf") && result.standardError.contains("internal subset"), "\(result.standardError.prefix(600))")
    }
}
