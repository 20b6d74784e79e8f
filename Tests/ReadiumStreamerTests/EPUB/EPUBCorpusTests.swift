// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

@Suite("EPUBParser over every corpus EPUB")
struct EPUBCorpusTests {
    /// Files that must not open, and the error category expected (nil: any clear error).
    static let mustFail: [String: String] = [
        "TIny-3-Bad.epub": EPUBError.Code.noReadableContent.rawValue,
        "ocf-container-not-ocf-error.epub": EPUBError.Code.notEPUB.rawValue,
    ]

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: EPUBTestSupport.corpusEPUBs)
    func opensOrFailsWithAClearError(path: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let mustFail = name.contains("-fatal") || Self.mustFail[name] != nil
        do {
            let publication = try EPUBTestSupport.open(path)
            #expect(!mustFail, "\(name) opened but should have failed")
            #expect(publication.mediaType == .epub)
            #expect(!publication.readingOrder.isEmpty)
            #expect(publication.metadata.title != nil, "\(name): no title; warnings: \(publication.warnings)")
            if EPUBTestSupport.validatorAvailable {
                let failure = try EPUBTestSupport.validationFailure(of: publication.manifest, name: name)
                #expect(failure == nil, "\(name): \(failure ?? "")")
            } else {
                #expect(!Corpus.isCI, "python3 with jsonschema is needed to validate manifests in CI")
            }
        } catch let error as EPUBError {
            #expect(mustFail, "\(name) failed: \(error)")
            if let expected = Self.mustFail[name] { #expect(error.code.rawValue == expected) }
            #expect(!error.message.isEmpty && !error.href.isEmpty)
        } catch let error as ResourceError {
            #expect(mustFail, "\(name) failed: \(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func unclosedContentDocumentOpensWithAWarningNamingIt() throws {
        let publication = try EPUBTestSupport.open("epub/w3c-epub-tests/pub-xml-non-validating_unclosed.epub")
        #expect(publication.readingOrder.map(\.href) == ["EPUB/content_001.xhtml"])
        #expect(publication.warnings.contains { $0.source == "EPUB/content_001.xhtml" && $0.message.contains("not well-formed") })
    }
}
