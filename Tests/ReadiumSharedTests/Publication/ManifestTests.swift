// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

@testable import ReadiumShared

@Suite struct ManifestTests {
    static let validFixtures = [
        "readium/swift-toolkit/SharedTests/Fixtures/Format/audiobook.json",
        "readium/swift-toolkit/SharedTests/Fixtures/Format/audiobook-wrongtype.json",
        "readium/swift-toolkit/SharedTests/Fixtures/Format/webpub.json",
        "schema/webpub-manifest/examples/Flatland.manifest.json",
        "schema/webpub-manifest/examples/MobyDick.manifest.json",
    ]

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: validFixtures)
    func readiumFixturesRoundTripWithoutLoss(path: String) throws {
        let data = try Data(contentsOf: try Corpus.file(path))
        let log = WarningLog()
        let manifest = try Manifest(jsonData: data, source: path, log: log)
        let written = manifest.json.serialized(.pretty)
        let reread = try Manifest(jsonData: Array(written.utf8), source: "written", log: WarningLog())
        #expect(reread == manifest)
        // Nothing the author wrote is dropped: the written JSON equals the original up to the RWPM
        // equivalence of a one-element array and its element.
        let original = try JSONParser.parse(data)
        #expect(Self.normalized(try JSONParser.parse(written)) == Self.normalized(original))
    }

    @Test func unknownKeysSurviveARoundTrip() throws {
        let text = #"""
            {"@context": "https://readium.org/webpub-manifest/context.jsonld",
             "metadata": {"title": "T", "x-custom": {"a": [1, 2]}, "subject": ["s1"], "belongsTo": {"series": "S"}},
             "readingOrder": [{"href": "a.mp3", "type": "audio/mpeg", "x-link": true, "properties": {"page": "left"}}],
             "x-collection": [{"href": "z"}]}
            """#
        let manifest = try Manifest(jsonData: Array(text.utf8), source: "t", log: WarningLog())
        let json = try #require(manifest.json.objectValue)
        #expect(json["x-collection"] == [["href": "z"]])
        #expect(json["metadata"]?.objectValue?["x-custom"] == ["a": [1, 2]])
        #expect(json["readingOrder"]?.arrayValue?.first?.objectValue?["x-link"] == true)
        #expect(json["readingOrder"]?.arrayValue?.first?.objectValue?["properties"] == ["page": "left"])
    }

    @Test func authorsMistakesAreAcceptedWithWarnings() throws {
        let text = #"""
            {"metadata": {"title": {"en": "Title", "fr": "Titre"}, "author": {"name": "Ann"}, "narrator": "Bob",
                          "language": "en", "duration": "120.5", "numberOfPages": 0, "readingProgression": "sideways"},
             "readingOrder": {"href": "a.mp3", "type": "audio/mpeg", "duration": -3, "bitrate": "64"}}
            """#
        let log = WarningLog()
        let manifest = try Manifest(jsonData: Array(text.utf8), source: "m.json", log: log)
        #expect(manifest.metadata.title?.string(for: "fr") == "Titre")
        #expect(manifest.metadata.title?.string == "Title")
        #expect(manifest.metadata.authors.map(\.name.string) == ["Ann"])
        #expect(manifest.metadata.narrators.map(\.name.string) == ["Bob"])
        #expect(manifest.metadata.languages == ["en"])
        #expect(manifest.metadata.duration == 120.5)
        #expect(manifest.metadata.numberOfPages == nil)
        #expect(manifest.metadata.readingProgression == nil)
        #expect(manifest.readingOrder.count == 1)
        #expect(manifest.readingOrder[0].duration == nil)
        #expect(manifest.readingOrder[0].bitrate == 64)
        let paths = Set(log.warnings.map(\.path))
        #expect(paths.isSuperset(of: ["metadata.duration", "metadata.numberOfPages", "metadata.readingProgression", "readingOrder.duration", "readingOrder.bitrate"]))
        #expect(log.warnings.allSatisfy { $0.source == "m.json" })
    }

    @Test func linksWithoutHrefAreDroppedWithAWarning() throws {
        let text = #"{"metadata": {"title": "T"}, "readingOrder": [{"type": "audio/mpeg"}, {"href": "b.mp3"}, 3]}"#
        let log = WarningLog()
        let manifest = try Manifest(jsonData: Array(text.utf8), source: "m", log: log)
        #expect(manifest.readingOrder.map(\.href) == ["b.mp3"])
        #expect(log.warnings.count == 2)
    }

    @Test(arguments: [
        (#"[1, 2]"#, "top level is an array"),
        (#"{"readingOrder": []}"#, "no \"metadata\""),
        (#"{"metadata": {"title": "T"}}"#, "no \"readingOrder\""),
        (#"{"metadata": {"title": "T"}, "readingOrder": []}"#, "empty reading order"),
        (#"{"metadata": {"title": "T"}, "readingOrder": [{"type": "audio/mpeg"}]}"#, "empty reading order"),
    ])
    func unusableManifestsAreErrorsThatSayWhy(text: String, expected: String) {
        #expect {
            try Manifest(jsonData: Array(text.utf8), source: "m.json", log: WarningLog())
        } throws: { error in
            let parse = error as! Manifest.ParseError
            return parse.source == "m.json" && parse.message.contains(expected)
        }
    }

    @Test func oldSpineKeyIsAcceptedAsReadingOrder() throws {
        let log = WarningLog()
        let manifest = try Manifest(jsonData: Array(#"{"metadata":{"title":"T"},"spine":[{"href":"a"}]}"#.utf8), source: "m", log: log)
        #expect(manifest.readingOrder.map(\.href) == ["a"])
        #expect(log.warnings.contains { $0.path == "spine" })
    }

    @Test func contributorsKeepTheirShape() throws {
        let text = #"{"metadata":{"title":"T","author":["A",{"name":"B","sortAs":"b","role":"aut"}]},"readingOrder":[{"href":"a"}]}"#
        let manifest = try Manifest(jsonData: Array(text.utf8), source: "m", log: WarningLog())
        let authors = try #require(manifest.json.objectValue?["metadata"]?.objectValue?["author"])
        #expect(authors == ["A", ["name": "B", "sortAs": "b", "role": "aut"]])
    }

    /// One-element arrays become their element, recursively, for comparing RWPM documents.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items) where items.count == 1 && items[0].stringValue != nil: return items[0]
        case .array(let items): return .array(items.map(normalized))
        case .object(let object): return .object(JSONObject(object.map { ($0.key, normalized($0.value)) }))
        case .number(let number): return .number(of: number)
        default: return value
        }
    }
}
