// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import Testing

/// `--events`: which kinds stdout gets, parsed and applied by the real binary.
@Suite struct EventSelectionTests {
    @Test func aListKeepsThoseKindsAndErrors() throws {
        let selection = try #require(EventSelection(argument: "state, Utterance"))
        #expect(selection.includes("state"))
        #expect(selection.includes("utterance"))
        #expect(selection.includes("error"), "errors always go out")
        #expect(!selection.includes("range"))
        #expect(!selection.includes("position"))
    }

    @Test func minusesLeaveKindsOut() throws {
        let selection = try #require(EventSelection(argument: "-range,-position"))
        #expect(!selection.includes("range"))
        #expect(!selection.includes("position"))
        #expect(selection.includes("utterance"))
        #expect(EventSelection(argument: "all,-range,-position") == selection)
        #expect(EventSelection(argument: "all,-range") != selection)
        #expect(EventSelection(argument: "-error")?.includes("error") == true, "errors cannot be left out")
    }

    @Test(arguments: ["", "range,", "bogus", "-bogus", "state,-range", "all,state"])
    func badListsAreRefused(argument: String) {
        #expect(EventSelection(argument: argument) == nil, "\(argument)")
    }

    @Test func stdoutGetsOnlyTheKindsChosenWhileTheDefaultIsUnchanged() throws {
        let (all, allEvents) = try SpeakCommandTests.speak([SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state"])
        #expect(all.status == 0)
        let kinds = Set(allEvents.compactMap { $0["type"]?.stringValue })
        #expect(kinds.isSuperset(of: ["opened", "state", "utterance", "range", "settings"]))

        let (result, events) = try SpeakCommandTests.speak([SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state", "--events=-range"])
        #expect(result.status == 0)
        #expect(!events.contains { $0["type"] == "range" })
        #expect(events.filter { $0["type"] == "utterance" }.count == allEvents.filter { $0["type"] == "utterance" }.count)

        let (only, onlyEvents) = try SpeakCommandTests.speak([SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state", "--events", "state"])
        #expect(only.status == 0)
        #expect(!onlyEvents.isEmpty)
        #expect(onlyEvents.allSatisfy { $0["type"] == "state" })
    }

    @Test func anUnknownKindIsAUsageError() throws {
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--events", "words"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--events"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
