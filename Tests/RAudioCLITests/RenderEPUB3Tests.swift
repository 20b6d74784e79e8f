// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio render --to epub3`, the built binary, checked as a reader would: the written book plays with raudio's
/// own Media Overlays navigator, every `par` reporting the text `raudio speak` reported for that utterance of
/// the source book (the same document, the same quote, in the same order), and EPUBCheck finds nothing in it.
@Suite(.serialized) struct RenderEPUB3Tests {
    /// (href without fragment, highlight) of each `utterance` event of `raudio COMMAND BOOK --output null`.
    static func utterances(_ command: String, _ book: String) throws -> [String] {
        utterances(in: try events(command, book))
    }

    /// The events of `raudio COMMAND BOOK --output null`.
    static func events(_ command: String, _ book: String) throws -> [JSONObject] {
        let result = try ProcessRunner.run(ProcessRunner.raudioExecutable, [command, book, "--output", "null"],
                                           environment: ["RAUDIO_NO_STATE": "1"], timeout: 300)
        #expect(result.status == 0, "\(command) \(book): \(result.standardError)")
        return RenderCommandTests.events(result.standardOutput)
    }

    static func utterances(in events: [JSONObject]) -> [String] {
        events.filter { $0["type"] == "utterance" }.compactMap { event in
            // An image or a page's media has no quote (speak) or an empty one (the overlay's text is the element).
            guard let locator = event["locator"]?.objectValue, let href = locator["href"]?.stringValue,
                  let highlight = locator["text"]?.objectValue?["highlight"]?.stringValue, !highlight.isEmpty else { return nil }
            return (href.split(separator: "#").first.map(String.init) ?? href) + " | " + highlight
        }
    }

    @Test(arguments: [RenderCommandTests.sample, "epub/daisy/Fundamental-Accessibility-Tests-Read-Aloud-v1.0.0.en.epub",
                      "epub/w3c-epub-tests/pkg-spine-order-svg.epub"])
    func everyParOfTheRenderIsTheUtteranceSpeakReads(book: String) throws {
        let source = book.hasPrefix("/") ? book : try Corpus.file(book).path
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("narrated.epub").path
        let render = try ProcessRunner.raudio(["render", source, "--to", "epub3", output, "--cache", folder.appendingPathComponent("cache").path],
                                              timeout: 300)
        #expect(render.status == 0, "\(render.standardError)")
        let spoken = try Self.utterances("speak", source)
        let playedEvents = try Self.events("play", output)
        let played = Self.utterances(in: playedEvents)
        // Each document's last clip ends at its audio's end: raudio plays its own render without a warning.
        let clamped = playedEvents.filter { $0["type"] == "warning" && $0["code"] == "clip-clamped" }
        #expect(clamped.isEmpty, "\(clamped.compactMap { $0["message"]?.stringValue })")
        #expect(!spoken.isEmpty)
        #expect(played == spoken, "first difference: \(zip(played, spoken).first { $0 != $1 }.map { "\($0) / \($1)" } ?? "in length \(played.count) / \(spoken.count)")")
        // EPUBCheck: nothing it did not find in the source (the DAISY book has a non-linear nav with no link to it).
        if EPUBCheck.isAvailable {
            let before = try EPUBCheck.problems(in: URL(fileURLWithPath: source)).map(\.code)
            let new = try EPUBCheck.problems(in: URL(fileURLWithPath: output)).filter { !before.contains($0.code) }
            #expect(new.isEmpty, "\(new)")
        }
    }
}

/// The M4B and the EPUB 3 of one render, read by other tools: ffprobe's chapters are the navigation document's,
/// each as long as the narration of its document in the EPUB (`media:duration` of its overlay) within 50 ms.
@Suite(.serialized) struct RenderM4BChapterTests {
    @Test func ffprobesChaptersAreTheTocAndAsLongAsTheEPUBsNarration() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let m4b = folder.appendingPathComponent("book.m4b").path, epub = folder.appendingPathComponent("book.epub").path
        let render = try ProcessRunner.raudio(["render", RenderCommandTests.sample, "--to", "m4b", m4b, "--to", "epub3", epub,
                                               "--cache", folder.appendingPathComponent("cache").path], timeout: 120)
        #expect(render.status == 0, "\(render.standardError)")
        let probe = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-show_chapters", "-of", "json", m4b])
        #expect(probe.status == 0, "\(probe.standardError)")
        let chapters = try #require(try JSONValue(parsing: Array(probe.standardOutput.utf8)).objectValue?["chapters"]?.arrayValue?.compactMap(\.objectValue))
        #expect(chapters.compactMap { $0["tags"]?.objectValue?["title"]?.stringValue } == ["Chapter 1. The Storm", "Chapter 2. Le matin"])
        // The narration of each document, from the package document of the EPUB written in the same run.
        let opf = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", epub, "EPUB/package.opf"]).standardOutput
        let durations = opf.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("property=\"media:duration\" refines="), let open = line.firstIndex(of: ">"),
                  let close = line[open...].firstIndex(of: "<") else { return nil }
            let parts = line[line.index(after: open)..<close].split(separator: ":").compactMap { Double($0) }
            return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : nil
        }
        // The narrator is the voice by name and engine, not its identifier (`en`).
        let narrators = opf.split(separator: "\n").filter { $0.contains("property=\"media:narrator\"") }
        #expect(narrators.count == 1 && narrators.allSatisfy { $0.contains(">eSpeak NG English") }, "\(narrators)")
        let format = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-show_format", "-of", "json", m4b])
        let tags = try JSONValue(parsing: Array(format.standardOutput.utf8)).objectValue?["format"]?.objectValue?["tags"]?.objectValue
        #expect(tags?["composer"]?.stringValue?.hasPrefix("eSpeak NG English") == true, "\(String(describing: tags))")
        #expect(durations.count == chapters.count)
        for (chapter, narration) in zip(chapters, durations) {
            let length = (Double(chapter["end_time"]?.stringValue ?? "") ?? 0) - (Double(chapter["start_time"]?.stringValue ?? "") ?? 0)
            #expect(abs(length - narration) <= 0.05, "chapter \(chapter["tags"]?.objectValue?["title"]?.stringValue ?? "?"): \(length) s, narration \(narration) s")
        }
    }
}
