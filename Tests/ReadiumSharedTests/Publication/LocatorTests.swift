// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

@testable import ReadiumShared

@Suite struct LocatorTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: [
        "readium/locators/architecture-locators-README-example1.json",
        "readium/locators/architecture-locators-README-example2.json",
        "readium/locators/architecture-locators-README-example3.json",
    ])
    func specExamplesRoundTripExactly(path: String) throws {
        let original = try JSONParser.parse(Data(contentsOf: try Corpus.file(path)))
        let locator = try Locator(json: original)
        #expect(locator.json == original)
    }

    @Test func audioLocatorExposesItsTimeFragment() throws {
        let locator = try Locator(jsonString: #"{"href":"track2.mp3","type":"audio/mpeg","locations":{"fragments":["t=389.84"],"progression":0.5}}"#)
        #expect(locator.locations.time?.begin == 389.84)
        #expect(locator.locations.progression == 0.5)
    }

    @Test func otherLocationKeysAndCSSSelectorArePreserved() throws {
        let text = ##"{"href":"c.xhtml","type":"application/xhtml+xml","locations":{"cssSelector":"#p3","partialCfi":"/4/2","progression":0.1},"text":{"before":"a ","highlight":"b","after":" c"},"x":1}"##
        let locator = try Locator(jsonString: text)
        #expect(locator.locations.cssSelector == "#p3")
        #expect(locator.json == (try JSONParser.parse(text)))
    }

    @Test func legacyFragmentAndOutOfRangeProgressionAreRepairedWithWarnings() throws {
        let log = WarningLog()
        let locator = try Locator(
            jsonString: #"{"href":"a.mp3","type":"audio/mpeg","locations":{"fragment":"t=3","progression":1.5}}"#, log: log
        )
        #expect(locator.locations.fragments == ["t=3"])
        #expect(locator.locations.progression == 1)
        #expect(log.warnings.count == 2)
    }

    @Test(arguments: [#"[]"#, #"{"type":"audio/mpeg"}"#, #"{"href":""}"#, #"{"href":"a""#, "nope"])
    func invalidLocatorsAreErrors(text: String) {
        #expect(throws: Locator.ParseError.self) { try Locator(jsonString: text) }
    }

    @Test(.enabled(if: ReadiumValidator.isAvailable, ReadiumValidator.skipMessage))
    func locatorsWeWriteValidateAgainstTheReadiumSchema() throws {
        let locators = [
            Locator(href: "t.mp3", type: "audio/mpeg", title: "Ch 1", locations: .init(fragments: [MediaFragment(begin: 12.5).description], progression: 0.25, totalProgression: 0.1, position: 3)),
            Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(progression: 0, otherLocations: ["cssSelector": "#x"]), text: .init(before: "a", highlight: "b", after: "c")),
        ]
        let lines = locators.map { JSONValue.object(["locator": $0.json]).serialized() }.joined(separator: "\n")
        try ReadiumValidator.validate(.locator, lines)
    }
}
