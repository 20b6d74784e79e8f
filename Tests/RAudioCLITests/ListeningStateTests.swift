// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import RAudioTestSupport
import ReadiumShared
import Testing

/// The listening state with the real binary and a real SQLite file: resume where a book was left
/// (after a stop, a signal, a kill), start over, history, remembered settings, and faults (a damaged
/// file, a directory that cannot be written, two players at once).
@Suite struct ListeningStateTests {
    static let book = PlayCommandTests.sampleBook

    /// Runs `raudio` with its state in `directory`.
    static func raudio(_ arguments: [String], state directory: TemporaryDirectory, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.raudio(arguments, environment: environment.merging(["RAUDIO_STATE_DIR": directory.url.path]) { _, new in new }, timeout: 120)
    }

    static func events(_ result: ProcessResult) throws -> [JSONObject] {
        try result.outputLines.map(PlayCommandTests.object)
    }

    /// The publication time of the first `position` event: where playback started.
    static func firstPosition(_ result: ProcessResult) throws -> Double? {
        try events(result).first { $0["type"] == "position" }.flatMap { $0["locator"]?.objectValue }.flatMap(PlayCommandTests.publicationTime)
    }

    static func history(_ state: TemporaryDirectory) throws -> [JSONObject] {
        let result = try raudio(["history"], state: state)
        #expect(result.status == 0, "\(result.standardError)")
        return try events(result)
    }

    @Test func aBookResumesWhereItStoppedAndStartsOverOnAsk() throws {
        let state = try TemporaryDirectory()
        // 30 s of audio: into the second track.
        let first = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "30"], state: state)
        #expect(first.status == 0, "\(first.standardError)")
        let saved = try #require(try Self.history(state).first)
        #expect(saved["title"]?.stringValue?.isEmpty == false)
        #expect(saved["finished"] == false)
        let savedTime = try #require(saved["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(abs(savedTime - 30) < 1, "saved at \(savedTime) s")

        let again = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "2"], state: state)
        #expect(again.status == 0)
        #expect(again.standardError.contains("resuming where the book was left"), "\(again.standardError)")
        let resumed = try #require(try Self.firstPosition(again))
        // A pause of seconds: no auto-rewind.
        #expect(resumed >= savedTime - 0.01 && resumed < savedTime + 1, "resumed at \(resumed) s, saved \(savedTime) s")

        let over = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "2", "--from", "start"], state: state)
        #expect(try #require(try Self.firstPosition(over)) < 1)
        let elsewhere = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "2", "--no-state"], state: state)
        #expect(try #require(try Self.firstPosition(elsewhere)) < 1, "--no-state neither resumes")
    }

    /// A book is known by its identifier: a copy elsewhere (moved, renamed) resumes, and history shows its new path.
    @Test func aMovedBookStillResumes() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "20"], state: state).status == 0)
        let moved = state.path("renamed.audiobook")
        try FileManager.default.copyItem(atPath: Self.book, toPath: moved)
        let again = try Self.raudio(["play", moved, "--output", "null", "--duration", "1"], state: state)
        let resumed = try #require(try Self.firstPosition(again))
        #expect(abs(resumed - 20) < 1, "resumed at \(resumed) s")
        let books = try Self.history(state)
        #expect(books.count == 1 && books.first?["path"]?.stringValue == URL(fileURLWithPath: moved).standardizedFileURL.path)
    }

    @Test func aFinishedBookIsMarkedAndStartsOver() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null"], state: state).status == 0)
        let saved = try #require(try Self.history(state).first)
        #expect(saved["finished"] == true)
        #expect(saved["progression"]?.doubleValue.map { $0 > 0.99 } == true, "\(String(describing: saved["progression"]))")
        let again = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "2"], state: state)
        #expect(try #require(try Self.firstPosition(again)) < 1)
    }

    /// A long pause rewinds a little; `--no-auto-rewind` does not.
    @Test func aLongPauseRewinds() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "30"], state: state).status == 0)
        // Two hours ago, as far as the store knows.
        let store = try #require(ListeningStateStore.open(directory: state.url).store)
        let opened = try #require(try store.history().first)
        let locator = try #require(opened.locator)
        try store.save(SavedPosition(locator: locator), key: opened.key, at: Date().timeIntervalSince1970 - 7200)
        let saved = try #require((try? JSONParser.parse(locator))?.objectValue.flatMap(PlayCommandTests.publicationTime))
        let rewound = try #require(try Self.firstPosition(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "1", "--no-auto-rewind"], state: state)))
        #expect(abs(rewound - saved) < 0.5, "--no-auto-rewind: \(rewound) s, saved \(saved) s")
        try store.save(SavedPosition(locator: locator), key: opened.key, at: Date().timeIntervalSince1970 - 7200)
        let back = try #require(try Self.firstPosition(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "1"], state: state)))
        #expect(abs(back - (saved - 10)) < 0.5, "after two hours: \(back) s, saved \(saved) s")
        // Steps of the listener's own.
        try store.save(SavedPosition(locator: locator), key: opened.key, at: Date().timeIntervalSince1970 - 7200)
        let own = try #require(try Self.firstPosition(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "1", "--auto-rewind", "1m:1,1h:3s"], state: state)))
        #expect(abs(own - (saved - 3)) < 0.5, "--auto-rewind 1m:1,1h:3s after two hours: \(own) s, saved \(saved) s")
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--auto-rewind", "soon"], state: state).status == 64)
    }

    @Test func autoRewindStepsParse() {
        #expect(AutoRewind(parsing: "off") == .off)
        #expect(AutoRewind(parsing: "60:2,3600:10") == AutoRewind(steps: [(60, 2), (3600, 10)]))
        #expect(AutoRewind(parsing: "1m:2,1h:10s,1d:30") == AutoRewind(steps: [(60, 2), (3600, 10), (86_400, 30)]))
        #expect(AutoRewind(parsing: "1m") == nil && AutoRewind(parsing: "") == nil && AutoRewind(parsing: "1m:-2") == nil)
        #expect(AutoRewind.standard.rewind(afterPause: 30) == 0)
        #expect(AutoRewind.standard.rewind(afterPause: 7200) == 10)
    }

    @Test func sigtermSavesAndSigkillLosesAtMostTheSaveInterval() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path, "RAUDIO_SAVE_INTERVAL": "1"]
        let killed = try RunningProcess(ProcessRunner.raudioExecutable, ["play", Self.book, "--output", "null", "--realtime"], environment: environment)
        #expect(killed.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") && $0.contains("t=3") })
        killed.signal(SIGKILL)
        _ = killed.finish(timeout: 10)
        let afterKill = try #require(try Self.history(state).first?["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(afterKill >= 1.5 && afterKill <= 3.6, "a kill at 3 s left \(afterKill) s (saves every second here)")

        let stopped = try RunningProcess(ProcessRunner.raudioExecutable, ["play", Self.book, "--output", "null", "--realtime", "--from", "10"],
                                         environment: ["RAUDIO_STATE_DIR": state.url.path])
        #expect(stopped.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") && $0.contains("t=12") })
        stopped.signal(SIGTERM)
        #expect(stopped.finish(timeout: 10))
        let afterTerm = try #require(try Self.history(state).first?["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime))
        #expect(afterTerm >= 12 && afterTerm < 13.5, "SIGTERM at 12 s saved \(afterTerm) s")
    }

    /// Players killed at random moments while saving every 50 ms leave the store sound (the full
    /// 1,000-kill run is `make state-stress`).
    @Test func killedPlayersLeaveTheStoreIntact() throws {
        let state = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let running = try RunningProcess(ProcessRunner.raudioExecutable, ["play", Self.book, "--output", "null", "--realtime", "--interval", "0.05"],
                                             environment: ["RAUDIO_STATE_DIR": state.url.path, "RAUDIO_SAVE_INTERVAL": "0.05"])
            // Half the kills at a random moment from the start (opening the store, the first save); the other
            // half once the book plays (position events every 50 ms), so that on a loaded machine, where the
            // start alone can take longer than 0.6 s, some kills still fall between saves.
            if round.isMultiple(of: 2) {
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &generator))
            } else {
                #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"position\"") }, "round \(round): no position event")
                Thread.sleep(forTimeInterval: Double.random(in: 0...0.2, using: &generator))
            }
            running.signal(SIGKILL)
            _ = running.finish(timeout: 10)
        }
        let store = try #require(ListeningStateStore.open(directory: state.url).store)
        #expect(try store.integrityCheck() == "ok")
        let books = try store.history()
        #expect(books.count == 1)
        #expect(books.first?.locator != nil, "some kill came after a save")
    }

    @Test func settingsAreRemembered() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "1", "--speed", "1.5", "--volume", "0.5"], state: state).status == 0)
        let saved = try #require(try Self.history(state).first)
        #expect(saved["speed"] == 1.5 && saved["volume"] == 0.5)
        // Without --speed, 4 s of the book at the remembered 1.5x render in 2.67 s.
        let wav = state.path("out.wav")
        #expect(try Self.raudio(["play", Self.book, "--output", "wav:\(wav)", "--duration", "4", "--from", "start"], state: state).status == 0)
        let seconds = try WAVHeader(path: wav).seconds
        #expect(abs(seconds - 4 / 1.5) < 0.1, "rendered \(seconds) s")
    }

    @Test func aSpokenBookResumesAtItsUtterance() throws {
        let state = try TemporaryDirectory()
        let first = try Self.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--duration", "12"], state: state)
        #expect(first.status == 0, "\(first.standardError)")
        let spoken = try Self.events(first).filter { $0["type"] == "utterance" }
        let last = try #require(spoken.last?["locator"]?.objectValue)
        let saved = try #require(try Self.history(state).first)
        #expect(saved["mode"] == "speak")
        #expect(saved["locator"]?.objectValue?["text"] == last["text"], "the saved locator quotes the last utterance")
        let again = try Self.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--duration", "2"], state: state)
        #expect(again.standardError.contains("resuming"), "\(again.standardError)")
        let firstAgain = try #require(try Self.events(again).first { $0["type"] == "utterance" }?["locator"]?.objectValue)
        #expect(firstAgain["href"] == last["href"] && firstAgain["text"] == last["text"], "resumed at \(firstAgain), left at \(last)")
        if ReadiumValidator.isAvailable {
            try ReadiumValidator.validate(.locator, try Self.raudio(["history"], state: state).standardOutput)
        }
    }

    /// A narrated EPUB (media overlays) resumes at the `par` it was reading.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func aNarratedBookResumesAtItsPar() throws {
        let state = try TemporaryDirectory()
        let book = try Corpus.file(NarrationPlayTests.daisy).path
        let first = try Self.raudio(["play", book, "--output", "null", "--duration", "8"], state: state)
        #expect(first.status == 0, "\(first.standardError)")
        let read = try Self.events(first).filter { $0["type"] == "utterance" }
        let last = try #require(read.last?["locator"]?.objectValue)
        #expect(try Self.history(state).first?["mode"] == "narration")
        let again = try Self.raudio(["play", book, "--output", "null", "--duration", "1"], state: state)
        #expect(again.standardError.contains("resuming"), "\(again.standardError)")
        let resumed = try #require(try Self.events(again).first { $0["type"] == "utterance" }?["locator"]?.objectValue)
        #expect(resumed["href"] == last["href"] && resumed["text"] == last["text"], "resumed at \(resumed), left at \(last)")
    }

    @Test func aDamagedStateFileIsMovedAsideAndPlaybackGoesOn() throws {
        let state = try TemporaryDirectory()
        try Data(repeating: 0x5A, count: 8192).write(to: state.url.appendingPathComponent(StateDirectory.fileName))
        let result = try Self.raudio(["play", Self.book, "--output", "null", "--duration", "3"], state: state)
        #expect(result.status == 0)
        #expect(result.standardError.contains("moved aside"), "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: state.url.path)
        #expect(files.contains { $0.hasPrefix("state.sqlite3.corrupt-") }, "\(files)")
        #expect(try Self.history(state).count == 1, "a new store was made and used")
    }

    /// Whether this machine lets us mount a directory read-only in a private mount namespace (root with
    /// CAP_SYS_ADMIN, as CI's machines run): root writes through permissions, so only a read-only mount
    /// makes a store unwritable.
    static let canMountReadOnly: Bool = {
        let probe = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt && mount -o remount,ro /mnt"])
        return probe?.status == 0
    }()

    @Test(.enabled(if: canMountReadOnly, "needs unshare -m and mount (root with CAP_SYS_ADMIN)"))
    func aReadOnlyStoreWarnsPlaybackGoesOnAndNothingIsLost() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "5"], state: state).status == 0)
        let script = """
            mount --bind '\(state.url.path)' '\(state.url.path)' && mount -o remount,bind,ro '\(state.url.path)' && \
            RAUDIO_STATE_DIR='\(state.url.path)' exec '\(ProcessRunner.raudioExecutable.path)' play '\(Self.book)' --output null --duration 3
            """
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["unshare", "-m", "sh", "-c", script], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning") && result.standardError.contains(state.url.path), "\(result.standardError)")
        #expect(result.outputLines.last?.contains("\"state\":\"stopped\"") == true)
        let store = try #require(ListeningStateStore.open(directory: state.url).store)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.history().first?.locator?.contains("t=5") == true, "the position saved before is still there")
    }

    @Test func aStateDirectoryThatCannotBeMadeWarnsAndPlaybackGoesOn() throws {
        let state = try TemporaryDirectory()
        // A directory under a regular file cannot exist, even for root.
        let blocker = state.path("a-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = try ProcessRunner.raudio(["play", Self.book, "--output", "null", "--duration", "3", "--state-dir", blocker + "/state"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("cannot be kept in \(blocker)/state"), "\(result.standardError)")
        #expect(result.outputLines.last?.contains("\"state\":\"stopped\"") == true)
    }

    /// A full disk (a file-size limit, `ulimit -f`): a warning, playback goes on, the store stays sound.
    @Test func aFullDiskWarnsAndLeavesTheStoreIntact() throws {
        let state = try TemporaryDirectory()
        #expect(try Self.raudio(["play", Self.book, "--output", "null", "--duration", "5"], state: state).status == 0)
        for blocks in [8, 20] {
            let script = "ulimit -f \(blocks); RAUDIO_STATE_DIR='\(state.url.path)' exec '\(ProcessRunner.raudioExecutable.path)' play '\(Self.book)' --output null --duration 3 --from start"
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], timeout: 60)
            #expect(!result.endedBySignal && result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("warning") && result.standardError.contains(state.url.path), "\(result.standardError)")
            #expect(result.outputLines.last?.contains("\"state\":\"stopped\"") == true)
        }
        let store = try #require(ListeningStateStore.open(directory: state.url).store)
        #expect(try store.integrityCheck() == "ok")
        let saved = try #require(try store.history().first?.locator)
        #expect(saved.contains("t=5"), "the position saved before the disk filled: \(saved)")
    }

    /// Players started together on a new store (creating it, switching it to WAL) and saving every
    /// 100 ms: no lock errors, one sound store.
    @Test func playersAtOnceShareTheStoreWithoutLocking() async throws {
        for _ in 0..<3 {
            let state = try TemporaryDirectory()
            let environment = ["RAUDIO_STATE_DIR": state.url.path, "RAUDIO_SAVE_INTERVAL": "0.1"]
            let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                for _ in 0..<3 {
                    group.addTask { try ProcessRunner.raudio(["play", Self.book, "--output", "null", "--interval", "0.05"], environment: environment, timeout: 120) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for result in results {
                #expect(result.status == 0)
                #expect(!result.standardError.contains("warning"), "\(result.standardError)")
            }
            let (opened, warnings) = ListeningStateStore.open(directory: state.url)
            #expect(warnings.isEmpty)
            let store = try #require(opened)
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.history().count == 1)
        }
    }
}
