// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// End-to-end tests of `raudio speak`: the built binary, real eSpeak NG, the real renderer and outputs.
@Suite struct SpeakCommandTests {
    static let sampleEPUB = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub").path
    static let sampleFolder = Corpus.projectRoot.appendingPathComponent("samples/lighthouse-epub").path

    static func speak(_ arguments: [String], input: Data? = nil) throws -> (ProcessResult, [JSONObject]) {
        let result = try ProcessRunner.raudio(["speak"] + arguments, input: input, timeout: 120)
        let events = try result.outputLines.map(PlayCommandTests.object)
        return (result, events)
    }

    static func utterances(_ events: [JSONObject]) -> [JSONObject] { events.filter { $0["type"] == "utterance" } }

    /// A lone HTML page and a text file are read aloud as books of one document: the page to its end
    /// (`<img>` and `<br>` left open as HTML writes them), the text a paragraph at a time, in the user's
    /// language where its words do not tell it apart.
    @Test func anHTMLPageAndATextFileAreReadAloud() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-speak-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        try Data(#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A Page</title></head><body><h1 id="one">One</h1><p>The lamp<br>went out.</p><img src="a.png"><h1 id="two">Two</h1><p>The keeper lit it again.</p></body></html>"#.utf8).write(to: page)
        let (result, events) = try Self.speak([page.path, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.utterances(events).map { $0["text"]?.stringValue ?? "" } == ["One", "The lamp\nwent out.", "Two", "The keeper lit it again."])
        #expect(events.filter { $0["type"] == "chapter" }.map { $0["title"]?.stringValue ?? "" } == ["One", "Two"])
        #expect(!result.standardError.contains("warning"), "\(result.standardError)")

        let text = folder.appendingPathComponent("notes.txt")
        try Data("Chapter one.\nThe storm came in the night and\nit did not stop until morning.\n".utf8).write(to: text)
        let spoken = try ProcessRunner.raudio(["speak", text.path, "--output", "null"], environment: ["LANG": "en_GB.UTF-8", "LC_ALL": ""], timeout: 120)
        #expect(spoken.status == 0, "\(spoken.standardError)")
        let textEvents = try spoken.outputLines.map(PlayCommandTests.object)
        let utterances = Self.utterances(textEvents)
        // Its heading is a chapter (`notes.txt#line-0`), announced where it is spoken.
        #expect(textEvents.filter { $0["type"] == "chapter" }.map { $0["href"]?.stringValue ?? "" } == ["notes.txt#line-0"])
        #expect(utterances.map { $0["text"]?.stringValue ?? "" } == ["Chapter one.", "The storm came in the night and it did not stop until morning."])
        #expect(utterances.allSatisfy { $0["language"] == "en" && $0["locator"]?.objectValue?["href"] == "notes.txt" && $0["locator"]?.objectValue?["type"] == "text/plain" }, "\(utterances)")
    }

    @Test func frenchParagraphInAnEnglishBookIsSpokenByAFrenchVoice() throws {
        let (result, events) = try Self.speak([Self.sampleEPUB, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        let utterances = Self.utterances(events)
        let french = utterances.filter { $0["language"] == "fr" }
        let english = utterances.filter { $0["language"]?.stringValue?.hasPrefix("en") == true }
        #expect(french.count == 2, "\(french)")
        #expect(french.allSatisfy { $0["voice"] == "fr" })
        #expect(!english.isEmpty && english.allSatisfy { $0["voice"]?.stringValue?.hasPrefix("en") == true })
        #expect(events.last?["type"] == "state" && events.last?["state"] == "ended")
    }

    /// A voice chosen with `--voice` speaks its own language; text in another, the book's main language
    /// included, falls back to that language's voice as without `--voice` (the French voice does not read
    /// the English book's English, nor an English voice a French book's French).
    @Test func aChosenVoiceSpeaksItsOwnLanguageAndTheRestFallsBack() throws {
        let (result, events) = try Self.speak([Self.sampleEPUB, "--output", "null", "--voice", "fr"])
        #expect(result.status == 0, "\(result.standardError)")
        let utterances = Self.utterances(events)
        let french = utterances.filter { $0["language"] == "fr" }
        let other = utterances.filter { $0["language"] != "fr" }
        #expect(french.count == 2 && other.count > 5)
        #expect(french.allSatisfy { $0["voice"] == "fr" }, "\(french.map { $0["voice"] ?? .null })")
        #expect(other.allSatisfy { $0["voice"]?.stringValue?.hasPrefix("en") == true }, "\(other.map { $0["voice"] ?? .null })")

        let (english, englishEvents) = try Self.speak([Self.sampleEPUB, "--output", "null", "--voice", "en-gb-scotland"])
        #expect(english.status == 0, "\(english.standardError)")
        let englishUtterances = Self.utterances(englishEvents)
        #expect(englishUtterances.filter { $0["language"] == "fr" }.allSatisfy { $0["voice"] == "fr" })
        #expect(englishUtterances.filter { $0["language"] != "fr" }.allSatisfy { $0["voice"] == "en-gb-scotland" })
    }

    /// The read-along page shows its voice box from the `settings` event: without `--voice` it names the
    /// voice the engine chose for the book's language, the one the English utterances are spoken with.
    @Test func settingsNameTheVoiceInUseWithoutVoiceOption() throws {
        let (result, events) = try Self.speak([Self.sampleEPUB, "--output", "null", "--no-state"])
        #expect(result.status == 0, "\(result.standardError)")
        let settings = try #require(events.first { $0["type"] == "settings" })
        let english = try #require(Self.utterances(events).first { $0["language"]?.stringValue?.hasPrefix("en") == true })
        #expect(settings["voice"] != nil && settings["voice"] == english["voice"], "\(settings)")
        #expect(settings["pitch"]?.doubleValue == 1)
    }

    @Test func footnotesAndPageBreaksAreSkippedByDefaultAndSpokenWhenAsked() throws {
        let (_, skipping) = try Self.speak([Self.sampleEPUB, "--output", "null"])
        let texts = Self.utterances(skipping).compactMap { $0["text"]?.stringValue }
        #expect(!texts.contains { $0.contains("Gull Rock") })
        let (_, all) = try Self.speak([Self.sampleEPUB, "--output", "null", "--skip", ""])
        #expect(Self.utterances(all).contains { $0["text"]?.stringValue?.contains("Gull Rock") == true })
    }

    @Test func wordRangesAreWholeWordsInsideTheirUtterance() throws {
        let (_, events) = try Self.speak([Self.sampleEPUB, "--output", "null"])
        var current: String?
        var words: [String] = []
        for event in events {
            if event["type"] == "utterance" { current = event["text"]?.stringValue }
            guard event["type"] == "range", let text = current,
                  let locator = event["locator"]?.objectValue?["text"]?.objectValue,
                  let word = locator["highlight"]?.stringValue else { continue }
            words.append(word)
            let before = locator["before"]?.stringValue ?? ""
            let after = locator["after"]?.stringValue ?? ""
            #expect(text.contains(word), "\(word) not in \(text)")
            // A whole word: no letter glued on either side.
            #expect(!(before.last?.isLetter ?? false) && !(after.first?.isLetter ?? false), "\(before)[\(word)]\(after)")
        }
        for expected in ["lighthouse", "arrivé", "l'aube", "l'équipage", "était", "C'est", "l'été"] {
            #expect(words.contains(expected), "no range for \(expected)")
        }
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable, EventSchemaValidator.skipMessage))
    func everyEventValidatesAgainstTheEventsSchema() throws {
        let (result, _) = try Self.speak([Self.sampleEPUB, "--output", "null"])
        #expect(result.outputLines.count > 50)
        try EventSchemaValidator.validate(result.outputLines)
    }

    @Test(.enabled(if: ReadiumValidator.isAvailable, ReadiumValidator.skipMessage))
    func everyLocatorValidatesAgainstTheReadiumSchema() throws {
        let (result, _) = try Self.speak([Self.sampleEPUB, "--output", "null"])
        try ReadiumValidator.validate(.locator, result.standardOutput)
    }

    @Test func restartingFromTheLastStateLocatorResumesAtThatUtterance() throws {
        let (first, events) = try Self.speak([Self.sampleEPUB, "--output", "null", "--duration", "6"])
        #expect(first.status == 0, "\(first.standardError)")
        let last = try #require(events.last)
        #expect(last["type"] == "state" && last["state"] == "stopped")
        let locator = try #require(last["locator"])
        let highlight = try #require(locator.objectValue?["text"]?.objectValue?["highlight"]?.stringValue)
        #expect(Self.utterances(events).last?["text"]?.stringValue == highlight)
        let (second, resumed) = try Self.speak([Self.sampleEPUB, "--output", "null", "--from", locator.serialized(), "--duration", "1"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(Self.utterances(resumed).first?["text"]?.stringValue == highlight)
    }

    @Test func stdinCommandsMoveByUtteranceAndRefuseSeek() throws {
        // Commands arrive once the first utterance plays (a second in), quit three seconds later (time for the
        // utterance respoken in another voice to start on a loaded machine or under ThreadSanitizer).
        let commands = #"sleep 1; printf 'next\nnext\nprevious\nseek 10\n{"command":"voice","value":"en-gb-scotland","id":1}\npitch 1.5\nvoice xx-nope\n'; sleep 3; echo quit"#
        let raudio = "RAUDIO_NO_STATE=1 '\(ProcessRunner.raudioExecutable.path)' speak '\(Self.sampleEPUB)' --output null --realtime"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "(\(commands)) | \(raudio)"], timeout: 60)
        let events = try result.outputLines.map(PlayCommandTests.object)
        #expect(result.status == 0, "\(result.standardError)")
        let acks = events.filter { $0["type"] == "ack" }.compactMap { $0["command"]?.stringValue }
        #expect(acks == ["next", "next", "previous", "voice", "pitch", "quit"])
        let errors = events.filter { $0["type"] == "error" }
        #expect(errors.contains { $0["code"] == "command-unsupported" })
        #expect(errors.contains { $0["code"] == "command-bad-value" })
        // next, next, previous from the first utterance ("Chapter 1."): the second, respoken with the Scottish
        // English voice (a voice speaks its own language: `voice fr` would not read this English). (The first
        // utterance in that voice, not the last one: the next may start before quit.)
        let respoken = try #require(Self.utterances(events).first { $0["voice"] == "en-gb-scotland" }, "nothing was spoken with the new voice")
        #expect(respoken["text"] == "The Storm", "\(respoken)")
        // The settings event after `voice fr` names the voice that speaks, as the utterance event does.
        let voices = events.filter { $0["type"] == "settings" }.compactMap { $0["voice"]?.stringValue }
        #expect(voices.last == respoken["voice"]?.stringValue, "settings named \(voices)")
    }

    @Test(arguments: [
        (["speak", "/nonexistent.epub", "--output", "null"], Int32(66)),
        (["speak", Self.sampleEPUB, "--output", "null", "--voice", "frr"], 64),
        (["speak", Self.sampleEPUB, "--output", "null", "--pitch", "9"], 64),
        (["speak", Self.sampleEPUB, "--output", "null", "--from", "12"], 64),
        (["speak", PlayCommandTests.sampleBook, "--output", "null"], 65),
    ] as [([String], Int32)])
    func badInputExitsWithTheDocumentedCode(arguments: [String], status: Int32) throws {
        let result = try ProcessRunner.raudio(arguments, timeout: 60)
        #expect(result.status == status, "\(result.standardError)")
        #expect(!result.standardError.isEmpty)
    }

    @Test func unknownVoiceListsCloseMatches() throws {
        let result = try ProcessRunner.raudio(["speak", Self.sampleEPUB, "--voice", "frr"], timeout: 60)
        #expect(result.status == 64)
        #expect(result.standardError.contains("Close matches") && result.standardError.contains("fr"))
    }

    /// A speak that cannot start says why as play and render do: one fatal `error` event on stdout (with
    /// `--json` too), the same event play writes for the same file, its line on stderr, the table's status.
    @Test(arguments: ["missing", "truncated", "unknown voice"])
    func aSpeakThatCannotStartWritesAnErrorEvent(case name: String) throws {
        let folder = try TemporaryDirectory()
        let truncated = folder.path("truncated.epub")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.sampleEPUB)).prefix(600)).write(to: URL(fileURLWithPath: truncated))
        let (arguments, status, code): ([String], Int32, String) = switch name {
        case "missing": (["/nonexistent/book.epub"], 66, "publication-not-found")
        case "truncated": ([truncated], 65, "")
        default: ([Self.sampleEPUB, "--voice", "klingon"], 64, "unknown-voice")
        }
        for json in [false, true] {
            let result = try ProcessRunner.raudio(["speak"] + arguments + ["--output", "null"] + (json ? ["--json"] : []), timeout: 60)
            #expect(result.status == status, "\(result.standardError)")
            let events = try result.outputLines.map(PlayCommandTests.object)
            #expect(events.count == 1, "\(result.standardOutput)")
            let event = try #require(events.first, "no event on stdout (\(name))")
            #expect(event["type"] == "error" && event["fatal"] == true, "\(event)")
            if !code.isEmpty { #expect(event["code"]?.stringValue == code, "\(event)") }
            let message = try #require(event["message"]?.stringValue)
            #expect(result.standardError.contains("raudio: error: \(message)"), "\(result.standardError)")
            #expect(result.standardError.components(separatedBy: "raudio: error:").count == 2, "said once:\n\(result.standardError)")
            if EventSchemaValidator.isAvailable { try EventSchemaValidator.validate(result.outputLines) }
            guard name != "unknown voice" else { continue }
            // The same event as play's for the same file.
            let played = try ProcessRunner.raudio(["play"] + arguments + ["--output", "null"], timeout: 60)
            #expect(played.status == status)
            let playedEvent = try played.outputLines.first.map(PlayCommandTests.object)
            #expect(playedEvent == event, "play: \(played.standardOutput)")
        }
    }

    @Test func bookWithoutTextIsBadData() throws {
        let folder = try TemporaryDirectory()
        let copy = try Self.copySample(to: folder)
        let empty = #"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body></body></html>"#
        for chapter in ["chapter-1.xhtml", "chapter-2.xhtml"] {
            try empty.write(toFile: "\(copy)/EPUB/\(chapter)", atomically: true, encoding: .utf8)
        }
        let result = try ProcessRunner.raudio(["speak", copy, "--output", "null"], timeout: 60)
        #expect(result.status == 65, "\(result.standardError)")
        let events = try result.outputLines.map(PlayCommandTests.object)
        #expect(events.contains { $0["type"] == "error" && $0["code"] == "no-text" && $0["fatal"] == true })
    }

    @Test func malformedChapterIsSkippedWithAWarningAndTheRestIsSpoken() throws {
        let folder = try TemporaryDirectory()
        let copy = try Self.copySample(to: folder)
        try FileManager.default.removeItem(atPath: "\(copy)/EPUB/chapter-1.xhtml")
        let result = try ProcessRunner.raudio(["speak", copy, "--output", "null"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map(PlayCommandTests.object)
        #expect(events.contains { $0["type"] == "warning" && $0["href"]?.stringValue?.hasSuffix("chapter-1.xhtml") == true })
        #expect(Self.utterances(events).contains { $0["text"]?.stringValue?.contains("morning") == true })
        #expect(events.last?["state"] == "ended")
    }

    static func copySample(to folder: TemporaryDirectory) throws -> String {
        let copy = folder.path("book")
        try FileManager.default.copyItem(atPath: sampleFolder, toPath: copy)
        return copy
    }
}
