// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// docs/align-events.schema.json checked against `AlignEvent`: every kind has its entry and its row in docs/events.md,
/// and an event of each kind, made by the real builders, validates.
@Suite struct AlignEventSchemaTests {
    static let schemaURL = Corpus.projectRoot.appendingPathComponent("docs/align-events.schema.json")

    @Test func theSchemaKnowsEveryKindOfAlignEventAndNoOther() throws {
        let data = try Data(contentsOf: Self.schemaURL)
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let types = try #require((schema["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["enum"] as? [String] })
        #expect(Set(types) == Set(AlignEvent.Kind.allCases.map(\.rawValue)))
        let documented = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
        let section = try #require(documented.range(of: "## `raudio align`"))
        for kind in AlignEvent.Kind.allCases {
            #expect(documented[section.lowerBound...].contains("| `\(kind.rawValue)` |"), "docs/events.md does not describe \(kind.rawValue) for raudio align")
        }
    }

    static var examples: [AlignEvent] {
        [
            .started(title: "Moby-Dick", audioFiles: 2, output: "synced.epub"),
            .progress(AlignProgressReport(stage: .reading, done: 1, total: 2, href: "01.mp3")),
            .warning(RenderWarning(code: "content-unreadable-resource", message: "EPUB/c.xhtml: cannot be read", href: "EPUB/c.xhtml")),
            .chapter(BookAlignment.ChapterCoverage(href: "EPUB/c1.xhtml", title: "Loomings", sentences: 40, aligned: 39, audioHref: "01.mp3", begin: 29.3, end: 610.2)),
            .unmatchedAudio(BookAlignment.AudioSpan(audioHref: "01.mp3", begin: 0, end: 29.3)),
            .unmatchedText(BookAlignment.TextSpan(href: "EPUB/notes.xhtml", firstUtterance: 800, lastUtterance: 812, reason: "not-narrated")),
            .output(format: "epub3", path: "synced.epub"),
            .done(sentences: 852, aligned: 839, unmatchedAudioSeconds: 29.3, audioSeconds: 1800, wallSeconds: 95.2),
            .error(CommandFailure(.badData, code: RAudioErrorCode.alignNoMatch.rawValue, message: "01.mp3: no part of the narration matches the text")),
        ]
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
    func anEventOfEachKindValidates() throws {
        let examples = Self.examples
        #expect(Set(examples.map(\.kind)) == Set(AlignEvent.Kind.allCases))
        try EventSchemaValidator.validate(examples.map { $0.json.serialized() }, schema: Self.schemaURL)
    }
}
