// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio speak --jobs N`: eSpeak NG in N worker processes; the built binary, real eSpeak NG, a corpus
/// chapter (hefty-water, one chapter of 454 words) rendered to WAV.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct SpeakJobsTests {
    /// One render of the chapter: its WAV bytes and its events.
    struct Render: Sendable {
        var wav: Data
        var events: [JSONObject]
        var status: Int32
        var standardError: String
    }

    static func render(jobs: Int) throws -> Render {
        let book = try Corpus.file("epub/idpf-epub3-samples/hefty-water.epub").path
        let folder = try TemporaryDirectory()
        let wav = folder.path("chapter.wav")
        let (result, events) = try SpeakCommandTests.speak([book, "--output", "wav:\(wav)", "--jobs", "\(jobs)"])
        return Render(wav: (try? Data(contentsOf: URL(fileURLWithPath: wav))) ?? Data(), events: events, status: result.status,
                      standardError: result.standardError)
    }

    /// Each utterance's text and the words its `range` events highlighted, in the order heard.
    static func wordsHeard(_ events: [JSONObject]) -> [(utterance: String, words: [String])] {
        var heard: [(utterance: String, words: [String])] = []
        for event in events {
            if event["type"] == "utterance", let text = event["text"]?.stringValue {
                heard.append((text, []))
            } else if event["type"] == "range", let word = event["locator"]?.objectValue?["text"]?.objectValue?["highlight"]?.stringValue,
                      !heard.isEmpty {
                heard[heard.count - 1].words.append(word)
            }
        }
        return heard
    }

    /// Whether `words` occur in `text` one after the other, in this order.
    static func occurInOrder(_ words: [String], in text: String) -> Bool {
        var cursor = text.startIndex
        for word in words {
            guard let found = text.range(of: word, range: cursor..<text.endIndex) else { return false }
            cursor = found.upperBound
        }
        return true
    }

    /// The `raudio espeak-worker` processes whose parent is `parent`.
    static func workers(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == parent,
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: command, as: UTF8.self).contains("espeak-worker")
        }.sorted()
    }

    /// Whether `pid` is gone (or only a zombie left to init after raudio exited).
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    static let renders: Result<(one: Render, two: Render, twoAgain: Render), any Error> = Result {
        (try render(jobs: 1), try render(jobs: 2), try render(jobs: 2))
    }

    @Test func twoJobsRenderTheChapterToTheSameWAVEveryTime() throws {
        let (_, two, again) = try Self.renders.get()
        #expect(two.status == 0, "\(two.standardError)")
        #expect(two.wav.count > 44 + 22050 * 2 * 60, "at least a minute of speech")
        #expect(two.wav == again.wav, "\(two.wav.count) and \(again.wav.count) bytes")
    }

    @Test func twoJobsRenderAsLongAsOneWithinOnePercent() throws {
        let (one, two, _) = try Self.renders.get()
        #expect(one.status == 0 && two.status == 0)
        let ratio = Double(two.wav.count - 44) / Double(one.wav.count - 44)
        #expect(abs(ratio - 1) < 0.01, "--jobs 2: \(two.wav.count) bytes, --jobs 1: \(one.wav.count) bytes")
    }

    @Test func twoJobsReportEveryWordInOrderAsOneJobDoes() throws {
        let (one, two, _) = try Self.renders.get()
        let heardOne = Self.wordsHeard(one.events)
        let heardTwo = Self.wordsHeard(two.events)
        #expect(heardTwo.count >= 30)
        #expect(heardTwo.map(\.utterance) == heardOne.map(\.utterance))
        #expect(heardTwo.map(\.words) == heardOne.map(\.words))
        for utterance in heardTwo {
            #expect(Self.occurInOrder(utterance.words, in: utterance.utterance), "\(utterance.words) in \(utterance.utterance)")
        }
        #expect(heardTwo.map(\.words.count).reduce(0, +) > 400)
        #expect(two.events.last?["type"] == "state" && two.events.last?["state"] == "ended")
        #expect(two.events.filter { $0["type"] == "warning" }.map { $0["message"] } == one.events.filter { $0["type"] == "warning" }.map { $0["message"] })
    }

    @Test func aKilledWorkerIsWarnedAboutAndTheRestIsSpoken() throws {
        // An hour of audio rendered unpaced: seconds, long enough to kill a worker in the middle (ten
        // minutes could end before the kill once the workers were pipelined).
        let book = try Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub").path
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", book, "--output", "null", "--duration", "3600", "--jobs", "2", "--no-state"])
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"utterance\"") })
        let workers = Self.workers(of: running.process.processIdentifier)
        #expect(workers.count == 2, "\(workers)")
        let victim = try #require(workers.first)
        kill(victim, SIGKILL)
        // The warning, then speech going on after it; then quit, as a listener would (rendering the rest
        // of the hour checked nothing more, and took minutes of a loaded machine).
        func spokeOn() -> Bool {
            let lines = running.outputLines
            guard let warned = lines.firstIndex(where: { $0.contains("eSpeak NG worker") }) else { return false }
            return lines[warned...].contains { $0.contains("\"type\":\"utterance\"") }
        }
        let deadline = Date().addingTimeInterval(120)
        while !spokeOn(), running.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(spokeOn(), "no utterance after the worker's warning: \(running.standardError)")
        running.send("quit\n")
        #expect(running.finish(timeout: 60), "raudio did not finish")
        #expect(running.process.terminationStatus == 0, "\(running.standardError)")
        let events = try running.outputLines.map(PlayCommandTests.object)
        let warnings = events.filter { $0["type"] == "warning" }
        #expect(warnings.contains { $0["message"]?.stringValue?.contains("eSpeak NG worker") == true
                    && $0["message"]?.stringValue?.contains("signal 9") == true }, "\(warnings)")
        // Speech went on after the failed utterance.
        let failed = try #require(events.firstIndex { $0["type"] == "warning" && $0["message"]?.stringValue?.contains("eSpeak NG worker") == true })
        #expect(events[failed...].contains { $0["type"] == "utterance" })
        #expect(events.last?["type"] == "state")
    }

    @Test func workersEndWithRaudioOnSIGINT() throws {
        let book = try Corpus.file("epub/idpf-epub3-samples/hefty-water.epub").path
        let running = try RunningProcess(ProcessRunner.raudioExecutable, ["speak", book, "--output", "null", "--realtime", "--jobs", "3"])
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"utterance\"") })
        let workers = Self.workers(of: running.process.processIdentifier)
        #expect(workers.count == 3, "\(workers)")
        running.signal(SIGINT)
        #expect(running.finish(timeout: 20), "raudio did not stop on SIGINT")
        let deadline = Date().addingTimeInterval(5)
        while !workers.allSatisfy(Self.hasEnded), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(workers.allSatisfy(Self.hasEnded), "still running: \(workers.filter { !Self.hasEnded($0) })")
    }

    @Test(arguments: ["0", "-1", "two", "1000"])
    func aBadJobCountIsAUsageError(count: String) throws {
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--jobs", count])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--jobs"), "\(result.standardError)")
    }
}
