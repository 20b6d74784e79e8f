// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumOPDS

/// The OPDS 2 feeds read and written back validate against the OPDS 2 feed schema (`scripts/opds-validate.py`
/// over `../shared/corpus/schema`): the corpus feeds that are valid stay valid, and the damaged Palace feed is
/// valid once its unusable publications are left out.
@Suite("OPDS 2 schema after a round trip", .enabled(if: Corpus.isAvailable && OPDSValidator.isAvailable, "the corpus or python3 with jsonschema is missing"))
struct OPDS2SchemaTests {
    @Test(arguments: [
        "opds2/cantook-epl-audiobooks-page1.json", "opds2/cantook-epl-home-groups.json", "opds2/fulcrum-leverpress.json",
        "opds2/palace-example-feed.json", "opds2/palace-bad-feed.json",
    ])
    func feedValidatesAfterARoundTrip(path: String) throws {
        let feed = try OPDSCorpus.feed(path)
        let output = try OPDSValidator.validate(.feed, feed.json.serialized())
        #expect(output == nil, "\(path): \(output ?? "")")
    }

    /// The validator can fail: the corpus's damaged feed, as it is, does not pass.
    @Test func theDamagedFeedAsWrittenIsInvalid() throws {
        let text = String(decoding: try OPDSCorpus.data("opds2/palace-bad-feed.json"), as: UTF8.self)
        #expect(try OPDSValidator.validate(.feed, text) != nil)
    }

    /// An OPDS 1 acquisition feed written as OPDS 2 is a valid OPDS 2 feed.
    @Test func anOPDS1FeedWrittenAsOPDS2Validates() throws {
        let feed = try OPDSCorpus.feed("opds1/simplye-classics-search-corner.xml").resolved(against: "https://h.example/search")
        let output = try OPDSValidator.validate(.feed, feed.json.serialized())
        #expect(output == nil, "\(output ?? "")")
    }
}

/// Runs `scripts/opds-validate.py` (OPDS 2 schemas of the shared corpus).
enum OPDSValidator {
    enum Kind: String { case feed, authentication }

    static var script: URL { Corpus.projectRoot.appendingPathComponent("scripts/opds-validate.py") }

    static let isAvailable: Bool = ReadiumValidator.hasPythonPackages || Corpus.isCI

    /// nil when `text` is valid, else the validator's report.
    static func validate(_ kind: Kind, _ text: String) throws -> String? {
        guard let root = Corpus.root else { throw CorpusMissing(path: "schema") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-opds-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, root.appendingPathComponent("schema").path, kind.rawValue, file.path], timeout: 120
        )
        return result.status == 0 ? nil : result.standardOutput + result.standardError
    }
}
