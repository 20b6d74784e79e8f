// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// Deeply nested XML (issue #51): a chapter nesting 1,000 `div`s overflowed the stack of `raudio text`; 20,000
/// levels in the package document took 1.6 GB, 200,000 (a 4 KB EPUB) 23 GB. The tree builder flattens what is
/// nested deeper than 256 levels into its ancestor at that depth, with one warning naming the file, and every
/// walk of a tree is iterative: no crash, and at most 100 MB, up to 200,000 levels.
@Suite(.serialized) struct SecurityNestedXMLTests {
    static let levels = [1_000, 20_000, 200_000]
    static let peakLimitKilobytes = 100 * 1024

    /// `levels` nested `div`s around "Deep text.", in a page after a paragraph.
    static func deepPage(_ levels: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>Deep</title></head><body>"
            + "<p>Shallow text.</p>" + String(repeating: "<div>", count: levels) + "Deep text." + String(repeating: "</div>", count: levels)
            + "<p>After the divs.</p></body></html>"
    }

    /// A book whose chapter nests `levels` elements.
    static func deepChapterBook(_ levels: Int) throws -> URL {
        try TestBooks.epub(pages: [("chapter.xhtml", "application/xhtml+xml", deepPage(levels))], language: "en")
    }

    /// A book whose package document nests `levels` elements in its metadata.
    static func deepPackageBook(_ levels: Int) throws -> URL {
        let book = try TestBooks.epub(pages: [("chapter.xhtml", "application/xhtml+xml", TestBooks.xhtml(["Shallow text."]))], language: "en")
        let opf = book.appendingPathComponent("EPUB/package.opf")
        let source = try String(contentsOf: opf, encoding: .utf8)
        let nest = String(repeating: "<meta-like>", count: levels) + "x" + String(repeating: "</meta-like>", count: levels)
        try Data(source.replacingOccurrences(of: "<dc:title>", with: nest + "<dc:title>").utf8).write(to: opf)
        return book
    }

    /// Runs raudio `arguments` under a Python parent that reports the child's peak RSS (kB): its address space
    /// capped at 4 GiB, so that a build without the limit fails here rather than exhausting the machine.
    static func measured(_ arguments: [String]) throws -> (status: Int32, peakKilobytes: Int, standardOutput: String, standardError: String) {
        let script = """
            import resource, subprocess, sys
            def cap(): resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
            run = subprocess.run(sys.argv[1:], capture_output=True, timeout=120, preexec_fn=cap)
            sys.stderr.write(run.stderr.decode(errors='replace'))
            sys.stderr.write('\\n--- stdout ---\\n' + run.stdout.decode(errors='replace')[:20000])
            print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                           ["-c", script, ProcessRunner.raudioExecutable.path] + arguments, timeout: 150)
        let fields = result.standardOutput.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let status = Int32(fields[0]), let peak = Int(fields[1]) else {
            throw IPCTestClient.Failure(description: "no measurement: \(result.standardOutput) \(result.standardError)")
        }
        let parts = result.standardError.components(separatedBy: "\n--- stdout ---\n")
        return (status, peak, parts.last ?? "", parts.first ?? "")
    }

    /// Runs `arguments` and checks the figures: exit 0, peak RSS at most 100 MB, `expected` in the output.
    static func expectBounded(_ arguments: [String], label: String, expected: [String]) throws {
        let run = try measured(arguments)
        print("SecurityNestedXMLTests: raudio \(arguments[0]) of \(label): exit \(run.status), peak RSS \(run.peakKilobytes / 1024) MB")
        #expect(run.status == 0, "\(label): exit \(run.status): \(run.standardError.suffix(800))")
        #expect(run.peakKilobytes <= peakLimitKilobytes, "\(label): peak RSS \(run.peakKilobytes / 1024) MB")
        for text in expected {
            #expect(run.standardOutput.contains(text), "\(label): \(text) missing from \(run.standardOutput.prefix(800))")
        }
    }

    @Test(arguments: levels) func aChapterNestedDeepIsReadFlattenedInBoundedMemory(levels: Int) throws {
        let book = try Self.deepChapterBook(levels)
        defer { try? FileManager.default.removeItem(at: book) }
        try Self.expectBounded(["text", book.path], label: "a chapter nesting \(levels) divs",
                               expected: ["Shallow text.", "Deep text.", "After the divs."])
        try Self.expectBounded(["info", book.path], label: "a chapter nesting \(levels) divs", expected: ["Test book"])
        let warned = try ProcessRunner.raudio(["text", book.path], timeout: 120)
        #expect(warned.standardError.contains("EPUB/chapter.xhtml") && warned.standardError.contains("nested more than 256 levels"),
                "the flattening is reported, naming the chapter: \(warned.standardError.prefix(800))")
    }

    @Test(arguments: levels) func aPackageDocumentNestedDeepIsReadInBoundedMemory(levels: Int) throws {
        let book = try Self.deepPackageBook(levels)
        defer { try? FileManager.default.removeItem(at: book) }
        try Self.expectBounded(["info", book.path], label: "a package document nesting \(levels) elements", expected: ["Test book"])
        try Self.expectBounded(["text", book.path], label: "a package document nesting \(levels) elements", expected: ["Shallow text."])
    }

    @Test func aLonePageNested200000DeepIsReadAndSpokenInBoundedMemory() throws {
        let folder = try TemporaryDirectory()
        let page = folder.url.appendingPathComponent("deep.xhtml")
        try Data(Self.deepPage(200_000).utf8).write(to: page)
        try Self.expectBounded(["text", page.path], label: "a lone XHTML page nesting 200000 divs", expected: ["Deep text.", "After the divs."])
        let html = folder.url.appendingPathComponent("deep.html")
        try Data(("<!DOCTYPE html><html><body><p>Shallow text.</p>" + String(repeating: "<div>", count: 200_000) + "Deep text.").utf8).write(to: html)
        // Read by libxml2's HTML parser (not XML), which stops at its own depth limit (256): what is deeper is left out.
        try Self.expectBounded(["text", html.path], label: "an HTML page opening 200000 divs never closed", expected: ["Shallow text."])
        try Self.expectBounded(["speak", page.path, "--output", "null", "--no-state"], label: "a lone XHTML page nesting 200000 divs",
                               expected: ["Deep text."])
    }
}
