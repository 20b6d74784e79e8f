// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// `raudio render`, the built binary: its wiring (outputs, events, exit codes) and what only a process can
/// show, that a render killed with SIGKILL at any point and started again writes the same bytes as one that
/// was not, speaking again only what it had not kept. The renderer itself is tested in process
/// (BookRendererTests).
@Suite(.serialized) struct RenderCommandTests {
    static let sample = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub").path

    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-render-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func events(_ output: String) -> [JSONObject] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONValue(parsing: Array(line.utf8)))?.objectValue
        }
    }

    @Test func rendersAnM4BAndAnAudiobookInOneRunWithEvents() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let m4b = folder.appendingPathComponent("book.m4b").path, audiobook = folder.appendingPathComponent("book.audiobook").path
        let result = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", m4b, "--to", "audiobook", audiobook, "--jobs", "2",
                                               "--cache", folder.appendingPathComponent("cache").path], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = Self.events(result.standardOutput)
        if EventSchemaValidator.isAvailable {
            try EventSchemaValidator.validate(result.outputLines, schema: EventSchemaValidator.renderSchemaURL)
        }
        #expect(events.first?["type"] == "started")
        #expect(events.contains { $0["type"] == "progress" })
        #expect(events.filter { $0["type"] == "output" }.compactMap { $0["path"]?.stringValue } == [m4b, audiobook])
        let done = try #require(events.last)
        #expect(done["type"] == "done")
        #expect(done["synthesized"]?.intValue == done["utterances"]?.intValue)
        #expect(done["cacheHits"]?.intValue == 0)
        let info = try ProcessRunner.raudio(["info", m4b])
        #expect(info.standardOutput.contains("Chapter 1. The Storm") && info.standardOutput.contains("Chapter 2. Le matin"))
        let infoBook = try ProcessRunner.raudio(["info", audiobook])
        #expect(infoBook.status == 0 && infoBook.standardOutput.contains("Chapter 2. Le matin"), "\(infoBook.standardError)")
        // raudio plays it.
        let play = try ProcessRunner.raudio(["play", audiobook, "--output", "null", "--json"], timeout: 60)
        #expect(play.status == 0, "\(play.standardError)")
        #expect(Self.events(play.standardOutput).contains { $0["type"] == "state" && $0["state"] == "ended" })
        // Again: everything from the cache, the same bytes.
        let before = try Data(contentsOf: URL(fileURLWithPath: m4b))
        let again = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", m4b, "--cache", folder.appendingPathComponent("cache").path])
        #expect(Self.events(again.standardOutput).last?["synthesized"]?.intValue == 0)
        let comparison = ByteComparison(try Data(contentsOf: URL(fileURLWithPath: m4b)), before)
        #expect(comparison.isSame, "\(comparison)")
    }

    /// A Piper voice's renders are the same bytes twice, each from an empty cache (the model's noise is off).
    @Test(.enabled(if: PiperEnvironment.isAvailable, "no Piper environment (.venv-piper): run make deps"))
    func aPiperRenderWritesTheSameBytesTwice() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [Data] = []
        for run in 0..<2 {
            let m4b = folder.appendingPathComponent("\(run).m4b").path
            let result = try ProcessRunner.raudio(["render", Self.sample, "--voice", "piper:en_US-joe-medium", "--to", "m4b", m4b,
                                                   "--cache", folder.appendingPathComponent("cache-\(run)").path], timeout: 180)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(Self.events(result.standardOutput).last?["synthesized"]?.intValue ?? 0 > 0)
            files.append(try Data(contentsOf: URL(fileURLWithPath: m4b)))
        }
        let comparison = ByteComparison(files[0], files[1])
        #expect(comparison.isSame, "two Piper renders differ: \(comparison)")
    }

    /// `--cache-size 0`: the render is whole, then its speech leaves the cache; a size that is not one is a usage error.
    @Test func theCacheIsTrimmedToItsLimitOnceTheRenderIsWritten() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache"), m4b = folder.appendingPathComponent("book.m4b").path
        let result = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", m4b, "--cache", cache.path, "--cache-size", "0"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.events(result.standardOutput).last?["synthesized"]?.intValue ?? 0 > 0)
        #expect(FileManager.default.fileExists(atPath: m4b))
        #expect(result.standardError.contains("--cache-size 0"), "\(result.standardError)")
        #expect(!result.standardError.contains("players look for"), "\(result.standardError)")
        let left = (FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".utterance") }
        #expect(left.isEmpty, "\(left.count) utterances left in the cache")
        // The default keeps them.
        let kept = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", m4b, "--cache", cache.path], timeout: 120)
        #expect(kept.status == 0 && !kept.standardError.contains("--cache-size"), "\(kept.standardError)")
        #expect((FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".utterance") })

        for size in ["lots", "infG", "1e30G"] {
            let bad = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", m4b, "--cache-size", size])
            #expect(bad.status == 64 && bad.standardError.contains("--cache-size \(size)"), "\(size): \(bad.standardError)")
        }
    }

    /// `--to epub3 book.epub` on the book itself (or through a link, or over a part being merged) would replace what
    /// is read with its render: a usage error, and the book as it was.
    @Test func anOutputOverTheBookItselfIsRefused() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.epub"), link = folder.appendingPathComponent("link.epub")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.sample), to: book)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: book)
        let original = try Data(contentsOf: book)
        for target in [book.path, link.path, folder.path + "/./book.epub"] {
            let result = try ProcessRunner.raudio(["render", book.path, "--to", "epub3", target])
            #expect(result.status == 64, "\(target): \(result.standardError)")
            #expect(result.standardError.contains("is the book being read"), "\(result.standardError)")
        }
        let part = folder.appendingPathComponent("1.rpart").path
        try Data("part".utf8).write(to: URL(fileURLWithPath: part))
        let merge = try ProcessRunner.raudio(["render", book.path, "--merge", part, "--to", "m4b", part])
        #expect(merge.status == 64 && merge.standardError.contains("is a part being read"), "\(merge.standardError)")
        #expect(try Data(contentsOf: book) == original)
    }

    /// A text file reads aloud as a book (`TextDocumentParser`), and renders to audio, but it has no pages to
    /// give Media Overlays: `--to epub3` is a usage error before anything is synthesized.
    @Test func aTextFileRendersToAnAudiobookButNotToAnEPUB() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("note.txt")
        try Data("Title: A Note\n\nThe lamp went out.\nThe keeper lit it again.\n".utf8).write(to: text)
        let epub = folder.appendingPathComponent("note.epub").path
        let refused = try ProcessRunner.raudio(["render", text.path, "--to", "epub3", epub])
        #expect(refused.status == 64 && refused.standardError.contains("is not an EPUB (text/plain)"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: epub))
        let audiobook = folder.appendingPathComponent("note.audiobook").path
        let result = try ProcessRunner.raudio(["render", text.path, "--to", "audiobook", audiobook, "--cache", folder.appendingPathComponent("cache").path],
                                              timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let publication = try PublicationOpener().open(url: URL(fileURLWithPath: audiobook))
        #expect(publication.title == "A Note" && publication.readingOrder.count == 1)
        #expect((publication.readingOrder.first?.duration ?? 0) > 1)
    }

    /// `--to m4b book.epub` is most likely a slip: written as asked, with a warning naming the extension players expect.
    @Test func anOutputNamedAsAnotherFormatIsWrittenWithAWarning() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let misnamed = folder.appendingPathComponent("book.epub").path
        let result = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", misnamed, "--cache", folder.appendingPathComponent("cache").path],
                                              timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("--to m4b \(misnamed): written as m4b all the same; players look for .m4b or .m4a or .mp4"),
                "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: misnamed)).dropFirst(4).starts(with: Data("ftyp".utf8)))
    }

    @Test func badInputIsAClearErrorWithItsExitCodeAndNoFile() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("book.m4b").path
        let unwritable = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", "/proc/raudio-no-such-folder/book.m4b"])
        #expect(unwritable.status == 73, "\(unwritable.standardError)")
        #expect(Self.events(unwritable.standardOutput).last?["type"] == "error")
        let voice = try ProcessRunner.raudio(["render", Self.sample, "--to", "m4b", out, "--voice", "nosuchvoice"])
        #expect(voice.status == 64 && voice.standardError.contains("nosuchvoice"))
        let empty = try TestBooks.epub(pages: [("p.xhtml", "application/xhtml+xml", TestBooks.xhtml([]))], language: "en")
        defer { try? FileManager.default.removeItem(at: empty) }
        let noText = try ProcessRunner.raudio(["render", empty.path, "--to", "m4b", out])
        #expect(noText.status == 65 && noText.standardError.contains("no text to speak"), "\(noText.standardError)")
        let usage = try ProcessRunner.raudio(["render", Self.sample, "--to", "wav", out])
        #expect(usage.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A book of `paragraphs` paragraphs of two sentences each, in three chapters.
    static func longBook(paragraphs: Int) throws -> URL {
        let words = ["lamp", "storm", "keeper", "rock", "wave", "light", "night", "tower", "gull", "boat"]
        func paragraph(_ number: Int) -> String {
            let a = words[number % words.count], b = words[(number / 3) % words.count]
            return "The \(a) number \(number) stood by the \(b). It was a long night for the \(a)."
        }
        let perPage = paragraphs / 3
        let pages = (0..<3).map { page in
            ("c\(page + 1).xhtml", "application/xhtml+xml",
             TestBooks.xhtml(["Chapter \(page + 1)"] + (0..<perPage).map { paragraph(page * perPage + $0) }))
        }
        return try TestBooks.epub(pages: pages, language: "en")
    }

    /// Kills a render with SIGKILL once it has reported `fraction` of its utterances (or at once for 0), then
    /// renders again to the end; returns the second run's `done` event.
    static func killThenFinish(book: String, outputs: [String], cache: String, at fraction: Double) throws -> JSONObject {
        let arguments = ["render", book] + outputs + ["--jobs", "2", "--cache", cache]
        let running = try RunningProcess(ProcessRunner.raudioExecutable, arguments)
        if fraction > 0 {
            _ = running.waitForLine(timeout: 120) { line in
                guard let event = (try? JSONValue(parsing: Array(line.utf8)))?.objectValue, event["type"] == "progress",
                      let done = event["progression"]?.doubleValue else { return false }
                return done >= fraction
            }
        } else {
            Thread.sleep(forTimeInterval: 0.3)
        }
        running.signal(SIGKILL)
        running.finish(timeout: 10)
        // The kill came before the render's end: what is checked is a render started again.
        #expect(running.process.terminationReason == .uncaughtSignal, "the render had ended before the kill at \(fraction)")
        let result = try ProcessRunner.raudio(arguments, timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(events(result.standardOutput).last)
    }

    @Test func aRenderKilledAtAnyPointAndStartedAgainWritesTheSameBytes() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.longBook(paragraphs: 60)
        defer { try? FileManager.default.removeItem(at: book) }
        // At three times the voice's speed: the same utterances, blocks and events, a third of the audio to make
        // and encode (eleven renders of the book).
        func outputs(_ name: String) -> [String] {
            ["--to", "m4b", folder.appendingPathComponent("\(name).m4b").path, "--to", "audiobook", folder.appendingPathComponent("\(name).audiobook").path,
             "--speed", "3"]
        }
        func bytes(_ name: String) throws -> [Data] {
            try ["m4b", "audiobook"].map { try Data(contentsOf: folder.appendingPathComponent("\(name).\($0)")) }
        }
        let whole = try ProcessRunner.raudio(["render", book.path] + outputs("whole") + ["--jobs", "2", "--cache", folder.appendingPathComponent("cache-whole").path],
                                             timeout: 300)
        #expect(whole.status == 0, "\(whole.standardError)")
        let reference = try bytes("whole")
        var random = SplitMix64(seed: UInt64(Date().timeIntervalSince1970))
        let points = [0.0, 0.8] + (0..<8).map { _ in Double(random.next() % 90) / 100 }
        for (number, point) in points.enumerated() {
            let cache = folder.appendingPathComponent("cache-\(number)").path
            let done = try Self.killThenFinish(book: book.path, outputs: outputs("run\(number)"), cache: cache, at: point)
            #expect(try bytes("run\(number)") == reference, "killed at \(point): other bytes")
            if point == 0.8, let synthesized = done["synthesized"]?.intValue, let utterances = done["utterances"]?.intValue {
                #expect(Double(synthesized) <= 0.25 * Double(utterances), "killed at 80 %: \(synthesized) of \(utterances) synthesized again")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "left beside the outputs: \(left)")
        }
    }
}
