// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioPlayer

/// `BookRenderer` on the sample EPUB with eSpeak NG, in process: the narrated documents the EPUB 3 writer
/// takes (clips in order, each document's last clip ending with its decoded audio, every word in a clip),
/// the cache (a second render speaks nothing and writes the same bytes), the M4B's chapters, the audiobook.
@Suite(.serialized) struct BookRendererTests {
    static let sampleEPUB = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")

    struct Rendered {
        let book: RenderedBook
        let folder: URL
    }

    static func temporaryFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-render-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let presetsFolder = VoicePresets.searchPath(environment: [:]).first {
        $0.lastPathComponent == "voices" && FileManager.default.fileExists(atPath: $0.path)
    }!

    /// eSpeak NG in `workers` worker processes (the built raudio), as `raudio render` speaks.
    static func makePool(workers: Int = 2) throws -> ESpeakWorkerPool {
        try ESpeakWorkerPool(presets: VoicePresets.load(folder: presetsFolder).presets, presetsFolder: presetsFolder,
                             workerCount: workers, executable: ProcessRunner.raudioExecutable)
    }

    static func render(granularity: NarrationGranularity, codec: AudioFileCodec = .mp3, cache: URL? = nil, in folder: URL,
                       m4b: String? = nil, workers: Int = 2) async throws -> RenderedBook {
        let publication = try PublicationOpener().open(url: sampleEPUB)
        let engine = try makePool(workers: workers)
        defer { engine.close() }
        let voice = try #require(engine.voice(withIdentifier: "en-us"))
        let settings = RenderSettings(voice: voice, granularity: granularity, codec: codec, engineIdentity: "espeak-ng test",
                                      synthesisWindow: workers, blockSize: 4)
        let renderer = BookRenderer(publication: publication, engine: engine, settings: settings,
                                    cache: cache.map(UtteranceAudioCache.init(folder:)), audioFolder: folder.appendingPathComponent("audio"))
        return try await renderer.render(tags: .init(title: publication.title, narrators: [voice.name]), m4b: m4b.map { .init(path: $0) })
    }

    @Test func documentsHaveOrderedClipsEndingWithTheirDecodedAudio() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for codec in AudioFileCodec.allCases {
            let book = try await Self.render(granularity: .sentence, codec: codec, in: folder.appendingPathComponent(codec.rawValue))
            #expect(book.documents.map(\.href) == ["EPUB/chapter-1.xhtml", "EPUB/chapter-2.xhtml"])
            for document in book.documents {
                try Self.expectOrdered(document)
                let decoded = try AudioFileWriterDecoding.seconds(document.audioFile)
                let last = try #require(document.clips.last)
                #expect(abs(last.end - decoded) < 0.010, "\(codec) \(document.href): last clip ends at \(last.end), audio decodes to \(decoded) s")
                #expect(abs(document.duration - decoded) < 0.010)
                #expect(document.audioMediaType == codec.mediaType)
            }
        }
    }

    static func expectOrdered(_ document: NarratedDocument) throws {
        #expect(!document.clips.isEmpty)
        var previousEnd = 0.0
        for clip in document.clips {
            #expect(clip.begin >= previousEnd - 1e-9 && clip.end > clip.begin, "\(document.href): \(clip.begin)–\(clip.end) after \(previousEnd)")
            previousEnd = clip.end
        }
    }

    @Test func atWordGranularityEverySpokenWordIsInAClip() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try await Self.render(granularity: .word, in: folder)
        let publication = try PublicationOpener().open(url: Self.sampleEPUB)
        let utterances = Array(try SpeechUtterances(publication: publication))
        let clips = book.documents.flatMap(\.clips)
        for document in book.documents { try Self.expectOrdered(document) }
        #expect(clips.count > utterances.count, "one clip per word")
        var checked = 0
        for utterance in utterances {
            let element = try #require(utterance.elementText)
            let spoken = utterance.quoteMap.quoteRange(forText: 0..<utterance.text.utf8.count)
            let ranges = clips.filter { $0.target.elementText == element && $0.target.locator.href == utterance.locator.href }.compactMap(\.target.textRange)
            for word in Self.words(in: element.text) where word.lowerBound >= element.quoteStart + spoken.lowerBound
                && word.upperBound <= element.quoteStart + spoken.upperBound {
                #expect(ranges.contains { $0.overlaps(word) }, "\"\(Self.slice(element.text, word))\" of \(utterance.locator.href) is in no clip")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    /// UTF-8 ranges of the runs of letters and digits (words) in `text`.
    static func words(in text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        var offset = 0
        for scalar in text.unicodeScalars {
            let isWord = CharacterSet.alphanumerics.contains(scalar)
            if isWord, start == nil { start = offset }
            if !isWord, let begun = start { ranges.append(begun..<offset); start = nil }
            offset += String(scalar).utf8.count
        }
        if let start { ranges.append(start..<offset) }
        return ranges
    }

    static func slice(_ text: String, _ range: Range<Int>) -> String {
        String(decoding: Array(text.utf8)[range], as: UTF8.self)
    }

    @Test func aSecondRenderReadsEverythingFromTheCacheAndWritesTheSameBytes() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let first = try await Self.render(granularity: .word, cache: cache, in: folder.appendingPathComponent("one"))
        #expect(first.counts.synthesized == first.counts.utterances && first.counts.cacheHits == 0)
        let second = try await Self.render(granularity: .word, cache: cache, in: folder.appendingPathComponent("two"))
        #expect(second.counts.cacheHits == second.counts.utterances && second.counts.synthesized == 0)
        #expect(first.documents.map(\.clips) == second.documents.map(\.clips), "the clips differ")
        for (a, b) in zip(first.documents, second.documents) {
            let comparison = try ByteComparison(contentsOf: a.audioFile, b.audioFile)
            #expect(comparison.isSame, "\(a.href): \(comparison)")
        }
    }

    /// A render that lost part of its cache (killed before those utterances were stored) speaks their block again
    /// and writes the same bytes: a block's audio does not depend on what the engine spoke before it.
    @Test func aRenderMissingPartOfItsCacheWritesTheSameBytes() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let first = try await Self.render(granularity: .word, cache: cache, in: folder.appendingPathComponent("one"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".utterance") }.sorted()
        // One utterance lost: its block (4 utterances) is spoken again, from a fresh process.
        var random = SplitMix64(seed: 34)
        let lost = files[Int(random.next() % UInt64(files.count))]
        try FileManager.default.removeItem(at: cache.appendingPathComponent(lost))
        let removed = 1
        // Another number of workers, too: each block is spoken by a fresh process.
        let second = try await Self.render(granularity: .word, cache: cache, in: folder.appendingPathComponent("two"), workers: 1)
        #expect(second.counts.synthesized >= removed && second.counts.synthesized < second.counts.utterances)
        #expect(first.documents.map(\.clips) == second.documents.map(\.clips), "the clips differ")
        for (a, b) in zip(first.documents, second.documents) {
            let comparison = try ByteComparison(contentsOf: a.audioFile, b.audioFile)
            #expect(comparison.isSame, "\(a.href): \(comparison)")
        }
    }

    @Test func theM4BHasTheTableOfContentsAsChaptersAsLongAsTheNarration() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.m4b").path
        let book = try await Self.render(granularity: .sentence, in: folder, m4b: path)
        let publication = try PublicationOpener().open(url: Self.sampleEPUB)
        let toc = ChapterMap(publication: publication).entries.map(\.title)
        #expect(book.chapters.map(\.title) == toc)
        let description = try FFmpegAudioFileInspector().inspect(TestFileResource(url: URL(fileURLWithPath: path), href: "book.m4b"))
        #expect(description.chapters.map(\.title) == toc)
        #expect(description.title == publication.title)
        #expect(description.narrators == ["en-us"] || !description.narrators.isEmpty)
        let narration = try book.documents.map { try AudioFileWriterDecoding.seconds($0.audioFile) }.reduce(0, +)
        let m4bLength = try AudioFileWriterDecoding.seconds(URL(fileURLWithPath: path))
        #expect(abs(m4bLength - narration) < 0.050, "M4B \(m4bLength) s, narration \(narration) s")
        // Each chapter as long as its part of the narration (the documents' decoded audio one after another).
        let starts = description.chapters.map(\.start), expected = book.chapters.map(\.start)
        for index in starts.indices {
            let length = (index + 1 < starts.count ? starts[index + 1] : m4bLength) - starts[index]
            let narrated = (index + 1 < expected.count ? expected[index + 1] : narration) - expected[index]
            #expect(abs(length - narrated) < 0.050, "chapter \(index): \(length) s in the M4B, \(narrated) s narrated")
        }
    }

    @Test func theAudiobookIsAValidRWPMPackageRaudioOpens() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try await Self.render(granularity: .sentence, in: folder)
        let publication = try PublicationOpener().open(url: Self.sampleEPUB)
        let path = folder.appendingPathComponent("book.audiobook").path
        try AudiobookPackageWriter.write(book, publication: publication, narrator: "en-us", to: path)
        let opened = try PublicationOpener().open(url: URL(fileURLWithPath: path))
        #expect(opened.readingOrder.count == book.documents.count)
        let durations = opened.readingOrder.compactMap(\.duration)
        #expect(zip(durations, book.documents.map(\.duration)).allSatisfy { abs($0 - $1) < 0.001 })
        #expect(opened.tableOfContents.map(\.title) == book.chapters.map(\.title))
        if let tools = Corpus.toolsFolder {
            let result = try ProcessRunner.run(tools.appendingPathComponent("readium-validate"), ["publication", path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        }
        // Written twice, the same bytes.
        let again = folder.appendingPathComponent("again.audiobook").path
        try AudiobookPackageWriter.write(book, publication: publication, narrator: "en-us", to: again)
        let comparison = try ByteComparison(contentsOf: URL(fileURLWithPath: path), URL(fileURLWithPath: again))
        #expect(comparison.isSame, "\(comparison)")
    }

    @Test func aBookWithNoTextIsAClearError() async throws {
        let folder = try TestBooks.epub(pages: [("p.xhtml", "application/xhtml+xml", TestBooks.xhtml([]))], language: "en")
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try PublicationOpener().open(url: folder)
        let engine = try Self.makePool(workers: 1)
        defer { engine.close() }
        let renderer = BookRenderer(publication: publication, engine: engine, settings: RenderSettings(voice: nil, engineIdentity: "test"),
                                    cache: nil, audioFolder: folder.appendingPathComponent("audio"))
        let failure = await #expect(throws: CommandFailure.self) { _ = try await renderer.render(tags: .init(title: nil)) }
        #expect(failure?.status == .badData)
        #expect(failure?.code == "no-text")
    }

    /// An output that fails on its encoding thread (the M4B's folder removed while it is written: the end's rename
    /// fails) stops the render with the write error (74) naming the file, and leaves nothing under its name.
    @Test func anOutputThatFailsOnItsEncodingThreadStopsTheRenderWithAWriteError() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let m4bFolder = folder.appendingPathComponent("m4b")
        try FileManager.default.createDirectory(at: m4bFolder, withIntermediateDirectories: true)
        let m4b = m4bFolder.appendingPathComponent("book.m4b").path
        let publication = try PublicationOpener().open(url: Self.sampleEPUB)
        let engine = try Self.makePool()
        defer { engine.close() }
        let voice = try #require(engine.voice(withIdentifier: "en-us"))
        let renderer = BookRenderer(publication: publication, engine: engine,
                                    settings: RenderSettings(voice: voice, engineIdentity: "espeak-ng test", blockSize: 4),
                                    cache: nil, audioFolder: folder.appendingPathComponent("audio"))
        let failure = await #expect(throws: CommandFailure.self) {
            _ = try await renderer.render(tags: .init(title: publication.title), m4b: .init(path: m4b)) { report in
                if report.utterancesDone == 1 { try? FileManager.default.removeItem(at: m4bFolder) }
            }
        }
        #expect(failure?.status == .outputIOError, "\(String(describing: failure))")
        #expect(failure?.message.contains("book.m4b") == true, "\(String(describing: failure))")
        #expect(!FileManager.default.fileExists(atPath: m4b))
    }
}

/// The seconds raudio's own decoders give for an audio file.
enum AudioFileWriterDecoding {
    static func seconds(_ url: URL) throws -> Double {
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url, href: url.lastPathComponent), mediaType: nil)
        var frames = 0
        var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 4096) }
            if count == 0 { break }
            frames += count
        }
        return Double(frames) / Double(decoder.format.sampleRate)
    }
}

/// Embedded media in a rendered book: decoded in its place, as `raudio speak` plays it.
@Suite(.serialized) struct BookRendererMediaTests {
    @Test func anAudioElementIsDecodedInPlaceWithItsClip() async throws {
        let wav = TestBooks.squareWaveWAV(seconds: 1.5)
        let page = TestBooks.xhtml(["Before the bell.", "<audio src=\"bell.wav\"/>", "After the bell."])
        let folder = try TestBooks.epub(pages: [("p.xhtml", "application/xhtml+xml", page)], language: "en",
                                        resources: [("bell.wav", "audio/wav", wav)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try PublicationOpener().open(url: folder)
        let engine = try BookRendererTests.makePool(workers: 1)
        defer { engine.close() }
        let renderer = BookRenderer(publication: publication, engine: engine, settings: RenderSettings(voice: nil, engineIdentity: "test", blockSize: 4),
                                    cache: nil, audioFolder: folder.appendingPathComponent("audio"))
        let book = try await renderer.render(tags: .init(title: nil), m4b: nil)
        #expect(book.counts.mediaDecoded == 1 && book.counts.mediaSkipped == 0, "\(book.warnings)")
        let document = try #require(book.documents.first)
        #expect(document.clips.count == 3)
        let bell = document.clips[1]
        #expect(abs((bell.end - bell.begin) - 1.5) < 0.001, "the bell's clip lasts \(bell.end - bell.begin) s")
        let decoded = try AudioFileWriterDecoding.seconds(document.audioFile)
        #expect(abs(decoded - (document.clips.last?.end ?? 0)) < 0.010)
    }
}
