// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// `--from`: what each form of its value means, and a file of the reading order found as `raudio info` names it.
struct StartPositionTests {
    @Test func eachFormOfTheValueIsRecognized() {
        #expect(StartPosition(argument: "start") == .start)
        #expect(StartPosition(argument: "42%") == .percentage(42))
        #expect(StartPosition(argument: "1:30") == .seconds(90))
        #expect(StartPosition(argument: #"{"href":"a.mp3"}"#) == .locatorJSON(#"{"href":"a.mp3"}"#))
        #expect(StartPosition(argument: "OPS/chapter_003.xhtml#id") == .href("OPS/chapter_003.xhtml#id"))
        #expect(StartPosition(argument: "120%") == nil)
        #expect(StartPosition(argument: "  ") == nil)
    }

    @Test func aFileOfTheReadingOrderIsFoundByItsHrefOrItsNameWithItsFragment() throws {
        let book = try PublicationOpener().open(url: Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook"))
        let byHref = try StartPosition.locator(href: "02-the-ship.ogg#t=5", in: book).get()
        #expect(byHref.href == "02-the-ship.ogg" && byHref.type == "audio/ogg" && byHref.locations.fragments == ["t=5"])
        let epub = try PublicationOpener().open(url: URL(fileURLWithPath: SpeakCommandTests.sampleEPUB))
        let byName = try StartPosition.locator(href: "chapter-2.xhtml", in: epub).get()
        #expect(byName.href == "EPUB/chapter-2.xhtml" && byName.locations.fragments.isEmpty)
        let unknown = StartPosition.locator(href: "missing.mp3", in: book)
        guard case .failure(let failure) = unknown else {
            Issue.record("missing.mp3 was found: \(unknown)")
            return
        }
        #expect(failure.status == .usage && failure.message.contains("01-the-storm.mp3"), "\(failure.message)")
    }

    /// End to end: `raudio text --from FILE` starts where the same place as a Locator starts.
    @Test func textFromAFileStartsAtItsFirstUtterance() throws {
        let byName = try ProcessRunner.raudio(["text", SpeakCommandTests.sampleEPUB, "--from", "chapter-2.xhtml"])
        let byLocator = try ProcessRunner.raudio(["text", SpeakCommandTests.sampleEPUB, "--from", #"{"href":"EPUB/chapter-2.xhtml","type":"application/xhtml+xml","locations":{}}"#])
        #expect(byName.status == 0 && byLocator.status == 0, "\(byName.standardError)")
        #expect(byName.outputLines.first == byLocator.outputLines.first && byName.outputLines.count == byLocator.outputLines.count)
        #expect(byName.outputLines.first?.contains("EPUB/chapter-2.xhtml") == true)
    }
}
