// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing

/// The `copy` right of an LCP EPUB where raudio hands text out: `raudio text` counts the characters it prints
/// against `rights.copy` in the listening state, across runs, and stops with `lcp-copy-spent` (65) when the next
/// utterance would go past it.
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct LCPCopyRightTests {
    static func book(copy: Int?, in folder: TemporaryDirectory) throws -> (String, String) {
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "copy-test-\(copy ?? 0)"
        spec.copy = copy
        let epub = try LCPVectorMaker.epubPackage(from: URL(fileURLWithPath: SpeakCommandTests.sampleEPUB),
                                                  license: try LCPVectorMaker().license(spec), contentKey: spec.contentKey)
        let path = folder.path("book-\(copy ?? 0).epub")
        try epub.write(to: URL(fileURLWithPath: path))
        let passphrase = folder.path("passphrase.txt")
        try (spec.passphrase + "\n").write(toFile: passphrase, atomically: true, encoding: .utf8)
        return (path, passphrase)
    }

    static func characters(_ output: String) -> Int {
        output.split(separator: "\n").compactMap { try? JSONParser.parse(Data($0.utf8)).objectValue?["text"]?.stringValue }.reduce(0) { $0 + $1.count }
    }

    @Test func textCountsCharactersDownAgainstTheCopyRightAndRefusesWhenSpent() throws {
        let folder = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": folder.path("state")]
        // Unlimited: the whole text, which is longer than the limit below.
        let (free, passphrase) = try Self.book(copy: nil, in: folder)
        let whole = try ProcessRunner.raudio(["text", free, "--passphrase-file", passphrase], environment: environment, timeout: 120)
        #expect(whole.status == 0, "\(whole.standardError)")
        let total = Self.characters(whole.standardOutput)
        #expect(total > 400, "the sample book has \(total) characters")

        let (limited, _) = try Self.book(copy: 300, in: folder)
        let first = try ProcessRunner.raudio(["text", limited, "--passphrase-file", passphrase], environment: environment, timeout: 120)
        #expect(first.status == 65, "\(first.standardError)")
        #expect(first.standardError.contains("copy right is spent") && first.standardError.contains(limited), "\(first.standardError)")
        let given = Self.characters(first.standardOutput)
        #expect(given > 0 && given <= 300, "handed out \(given) characters of 300")
        // The rest of the right is what is left for the next run; then nothing.
        var handedOut = given
        for _ in 0..<5 {
            let next = try ProcessRunner.raudio(["text", limited, "--passphrase-file", passphrase], environment: environment, timeout: 120)
            #expect(next.status == 65, "\(next.standardError)")
            handedOut += Self.characters(next.standardOutput)
        }
        #expect(handedOut <= 300, "handed out \(handedOut) characters in all")
        let spent = try ProcessRunner.raudio(["text", limited, "--passphrase-file", passphrase], environment: environment, timeout: 120)
        #expect(spent.status == 65 && spent.standardOutput.isEmpty, "\(spent.standardOutput)")
    }
}
