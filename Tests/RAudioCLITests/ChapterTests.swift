// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// Chapters: `chapter` events as the table-of-contents entry heard changes, `chapter next|previous|N`,
/// `toc`, and `sleep chapter`, with the real binary (the sample audiobook's six entries, two per track).
@Suite struct ChapterTests {
    static func events(_ running: RunningProcess, _ type: String) throws -> [JSONObject] {
        try running.outputLines.filter { $0.contains("\"type\":\"\(type)\"") }.map(PlayCommandTests.object)
    }

    /// Sends `command`, then waits for a line after it satisfying `predicate`.
    static func send(_ command: String, to running: RunningProcess, thenWaitFor predicate: (String) -> Bool) -> Bool {
        let before = running.outputLines.count
        running.send(command + "\n")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if running.outputLines[before...].contains(where: predicate) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    @Test func chapterAndTocParse() {
        let parsed = { (line: String) -> PlayerCommand? in try? PlayerCommandParser.parse(line: line).get()?.command }
        #expect(parsed("chapter next") == .chapter(.next))
        #expect(parsed("chapter previous") == .chapter(.previous))
        #expect(parsed("chapter 3") == .chapter(.number(3)))
        #expect(parsed(#"{"command":"chapter","value":3}"#) == .chapter(.number(3)))
        #expect(parsed(#"{"command":"chapter","value":"next"}"#) == .chapter(.next))
        #expect(parsed("toc") == .toc)
        #expect(parsed("chapter 0") == nil && parsed("chapter") == nil && parsed("chapter soon") == nil)
    }

    @Test func chaptersAreFollowedAndMovedThrough() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--from", "14", "--no-state", "--interval", "0.2"])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":2") })
        #expect(Self.send("chapter next", to: running) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":3") })
        #expect(Self.send("toc", to: running) { $0.contains("\"type\":\"toc\"") })
        // Within 3 s of its start, previous goes to the entry before.
        #expect(Self.send("chapter previous", to: running) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":2") })
        #expect(Self.send("chapter 6", to: running) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":6") })
        #expect(Self.send("chapter next", to: running) { $0.contains("the last chapter is playing") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))

        let chapters = try Self.events(running, "chapter").compactMap { $0["index"]?.intValue }
        #expect(chapters == [1, 2, 3, 2, 6], "\(chapters)")
        let toc = try #require(try Self.events(running, "toc").first?["entries"]?.arrayValue)
        #expect(toc.count == 6)
        #expect(toc.compactMap { $0.objectValue?["current"]?.boolValue }.enumerated().filter(\.element).map(\.offset) == [2], "entry 3 is current")
        #expect(toc[3].objectValue?["start"]?.doubleValue.map { abs($0 - 36.165) < 0.001 } == true, "24.465 + 11.70")
        // The fourth chapter event lands at the start of entry 2 (15.26 s).
        let third = try Self.events(running, "chapter")[3]
        let time = try #require(third["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(time >= 15.2 && time < 16, "entry 2 heard from \(time) s")
        if EventSchemaValidator.isAvailable { try EventSchemaValidator.validate(running.outputLines) }
    }

    @Test func sleepChapterPausesWhenTheChapterEnds() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--from", "12", "--no-state", "--interval", "0.2"])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"chapter\"") })
        #expect(Self.send("sleep chapter", to: running) { $0.contains("\"type\":\"sleep\"") && $0.contains("\"until\":\"chapter\"") })
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"sleep\"") && $0.contains("\"fired\"") })
        #expect(running.waitForLine(timeout: 5) { $0.contains("\"state\":\"paused\"") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        let fired = try #require(try Self.events(running, "sleep").last)
        let time = try #require(fired["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(time >= 15.2 && time < 16.5, "paused at \(time) s, the chapter ended at 15.26 s")
    }

    /// In an audiobook the chapter's end is known: its last 10 s fade out, measured in the rendered WAV.
    @Test func sleepChapterFadesTheChaptersLastSeconds() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("out.wav")
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "wav:\(wav)", "--realtime", "--from", "8", "--no-state", "--interval", "0.1"])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"chapter\"") })
        #expect(Self.send("sleep chapter", to: running) { $0.contains("\"type\":\"sleep\"") && $0.contains("\"set\"") })
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"sleep\"") && $0.contains("\"fired\"") })
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        let states = try Self.events(running, "sleep").compactMap { $0["state"]?.stringValue }
        #expect(states == ["set", "fading", "fired"], "\(states)")
        let samples = try SleepTimerTests.samples(wav)
        let rate = 22050.0
        let peak = { (from: Double, to: Double) -> Int in
            samples[max(0, Int(from * rate))..<min(samples.count, Int(to * rate))].map { abs(Int($0)) }.max() ?? 0
        }
        // The WAV starts at 8 s of the book; chapter 1 ends at 15.26 s, so the fade is on from the first
        // tick (7.26 s left: 73 % of the level) to nothing at 7.26 s of it.
        let seconds = Double(samples.count) / rate
        #expect(seconds > 6.8 && seconds < 8.5, "\(seconds) s rendered")
        let early = peak(0, 2)
        #expect(early > 1500)
        #expect(peak(6.75, 7.25) < early / 6, "the chapter's last half second is faded (\(peak(6.75, 7.25)) of \(early))")
    }

    /// Faster than real time (to the null output or a file) a chapter is announced when its first utterance
    /// starts, before that utterance's event: also for chapters that start inside a file (Project Gutenberg's
    /// `book.xhtml#chN`, placed as their file is reached), and for a short run from `--from` a chapter's file.
    @Test func eachChapterIsAnnouncedBeforeItsFirstUtteranceWhateverTheOutput() throws {
        let (_, folder) = try SessionBooks.gutenbergLayout()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-chapters-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        /// The chapter each utterance is in, by its text: a heading starts one ("CHAPTER 2. ..." is "Chapter 2. ...").
        func chapterOf(_ text: String, after previous: String?) -> String? {
            if text.hasPrefix("CHAPTER ") { return "Chapter " + text.dropFirst("CHAPTER ".count) }
            if text.hasPrefix("Epilogue") { return "Epilogue" }
            return previous ?? "Front"
        }
        for arguments in [["--output", "null"], ["--output", "wav:\(wav.path)"], ["--output", "null", "--from", "end.xhtml"]] {
            let result = try ProcessRunner.raudio(["speak", folder.path, "--json", "--no-state"] + arguments, timeout: 120)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            let events = try result.outputLines.map(PlayCommandTests.object).filter { $0["type"] == "chapter" || $0["type"] == "utterance" }
            var announced: String?
            var heard: String?
            var checked = 0
            for event in events {
                if event["type"] == "chapter" {
                    announced = event["title"]?.stringValue
                    continue
                }
                let text = event["text"]?.stringValue ?? ""
                heard = chapterOf(text, after: heard)
                #expect(heard.map { announced?.hasPrefix($0) == true } == true, "\(arguments): \"\(text)\" heard under chapter \(announced ?? "none")")
                checked += 1
            }
            #expect(checked >= (arguments.contains("--from") ? 2 : 8), "\(arguments): \(checked) utterances")
            // (The front matter is Project Gutenberg's header, which may go unread.)
            let titles = events.filter { $0["type"] == "chapter" }.compactMap { $0["title"]?.stringValue }.filter { $0 != "Front" }
            #expect(titles == (arguments.contains("--from") ? ["Epilogue"]
                                : ["Chapter 1. Loomings", "Chapter 2. The Carpet-Bag", "Chapter 3. The Spouter-Inn", "Epilogue"]), "\(arguments)")
        }
    }

    @Test func aSpokenBookFollowsItsNavigationDocument() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable, ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime", "--no-state"])
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"chapter\"") })
        #expect(Self.send("chapter next", to: running) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":2") })
        // The utterance reached plays from its first chunk and is announced once its synthesis ended.
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"utterance\"") && $0.contains("chapter-2.xhtml") })
        running.send("quit\n")
        _ = running.finish(timeout: 10)
        let second = try #require(try Self.events(running, "chapter").last)
        let href = try #require(second["href"]?.stringValue?.split(separator: "#").first.map(String.init))
        let utterances = try Self.events(running, "utterance")
        #expect(utterances.last?["locator"]?.objectValue?["href"]?.stringValue == href, "speech moved to \(href)")
    }
}
