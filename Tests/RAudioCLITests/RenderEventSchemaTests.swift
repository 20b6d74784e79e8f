// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// docs/render-events.schema.json checked against `RenderEvent`: every kind has its entry, and an event of each
/// kind, made by the real builders, validates; so do the events of a real render (RenderCommandTests' output).
@Suite struct RenderEventSchemaTests {
    @Test func theSchemaKnowsEveryKindOfRenderEventAndNoOther() throws {
        let data = try Data(contentsOf: EventSchemaValidator.renderSchemaURL)
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let types = try #require((schema["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["enum"] as? [String] })
        #expect(Set(types) == Set(RenderEvent.Kind.allCases.map(\.rawValue)))
        let documented = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
        for kind in RenderEvent.Kind.allCases {
            #expect(documented.contains("| `\(kind.rawValue)` |"), "docs/events.md does not describe \(kind.rawValue)")
        }
    }

    static var examples: [RenderEvent] {
        var counts = RenderCounts()
        (counts.utterances, counts.cacheHits, counts.synthesized) = (14, 4, 10)
        let output = RenderOutput(format: .m4b, path: "book.m4b")
        return [
            .started(title: "The Lighthouse Keeper", outputs: [output, RenderOutput(format: .audiobook, path: "book.audiobook")]),
            .progress(RenderProgressReport(utterancesDone: 3, utteranceCount: 14, audioSeconds: 4.66, counts: counts, href: "EPUB/chapter-1.xhtml")),
            .warning(RenderWarning(code: "media-skipped", message: "EPUB/c.xhtml: its audio (a.mp3) is left out of the narration", href: "EPUB/c.xhtml")),
            .output(output, duration: 31.5),
            .done(counts: counts, audioSeconds: 31.5, wallSeconds: 1.8),
            .error(CommandFailure(.cannotCreateOutput, code: "output-not-created", message: "/x/book.m4b: its folder /x does not exist")),
        ]
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
    func anEventOfEachKindValidates() throws {
        let examples = Self.examples
        #expect(Set(examples.map(\.kind)) == Set(RenderEvent.Kind.allCases))
        try EventSchemaValidator.validate(examples.map { $0.json.serialized() }, schema: EventSchemaValidator.renderSchemaURL)
    }
}
