// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioPlayer

/// `BookAligner` on a four-chapter book whose "narration" is a render of it by another eSpeak NG voice at another
/// tempo (its clips are the truth): sentence starts found within 250 ms, chapters heard in another order located,
/// a chapter missing from the audio reported and not placed, an announcement before the text reported as audio with
/// no text, the alignment's JSON read back, and audio of another book refused.
@Suite(.serialized) struct BookAlignerTests {
    static let chapters: [[String]] = [
        ["Call me Ishmael.", "Some years ago, never mind how long precisely, having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.",
         "It is a way I have of driving off the spleen and regulating the circulation.", "Whenever I find myself growing grim about the mouth, whenever it is a damp, drizzly November in my soul, then I account it high time to get to sea as soon as I can.",
         "This is my substitute for pistol and ball.", "There is nothing surprising in this."],
        ["It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.", "It was the epoch of belief, it was the epoch of incredulity, it was the season of Light, it was the season of Darkness.",
         "It was the spring of hope, it was the winter of despair.", "We had everything before us, we had nothing before us, we were all going direct to Heaven, we were all going direct the other way.",
         "In short, the period was so far like the present period, that some of its noisiest authorities insisted on its being received, for good or for evil, in the superlative degree of comparison only."],
        ["Happy families are all alike; every unhappy family is unhappy in its own way.", "Everything was in confusion in the Oblonskys' house.",
         "The wife had discovered that the husband was carrying on an intrigue with a French girl, who had been a governess in their family, and she had announced to her husband that she could not go on living in the same house with him.",
         "This position of affairs had now lasted three days, and not only the husband and wife themselves, but all the members of their family and household, were painfully conscious of it.",
         "The wife did not leave her own room, the husband had not been at home for three days."],
        ["In a hole in the ground there lived a hobbit.", "Not a nasty, dirty, wet hole, filled with the ends of worms and an oozy smell, nor yet a dry, bare, sandy hole with nothing in it to sit down on or to eat.",
         "It had a perfectly round door like a porthole, painted green, with a shiny yellow brass knob in the exact middle.", "The door opened on to a tube-shaped hall like a tunnel, a very comfortable tunnel without smoke, with panelled walls, and floors tiled and carpeted.",
         "It was provided with polished chairs, and lots and lots of pegs for hats and coats, for the hobbit was fond of visitors."],
    ]

    static func book() throws -> URL {
        try TestBooks.epub(pages: chapters.enumerated().map { ("chapter-\($0.offset + 1).xhtml", "application/xhtml+xml", TestBooks.xhtml($0.element)) },
                           language: "en")
    }

    struct Narration {
        let documents: [NarratedDocument]
        let folder: URL
    }

    /// The book rendered by eSpeak NG's `voice` at `rate`: one MP3 per chapter, its clips the truth.
    static func narrate(_ book: URL, voice identifier: String = "en-gb-scotland", rate: Double = 0.85) async throws -> Narration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-align-\(UUID().uuidString)")
        let publication = try PublicationOpener().open(url: book)
        let engine = try BookRendererTests.makePool()
        defer { engine.close() }
        let voice = try #require(engine.voice(withIdentifier: identifier))
        let settings = RenderSettings(voice: voice, rate: rate, engineIdentity: "espeak-ng narrator", synthesisWindow: 2)
        let renderer = BookRenderer(publication: publication, engine: engine, settings: settings, cache: nil, audioFolder: folder)
        let rendered = try await renderer.render(tags: .init(title: "Test book", narrators: [voice.name]))
        return Narration(documents: rendered.documents, folder: folder)
    }

    static func track(_ file: URL, href: String? = nil, mediaType: MediaType = .mp3) -> AlignmentAudio.Track {
        AlignmentAudio.Track(href: href ?? file.lastPathComponent, file: file, mediaType: mediaType) { () throws(AudioDecoderError) in
            try RAudioDecoderFactory().makeDecoder(for: FileResource(url: file), mediaType: mediaType)
        }
    }

    static func align(_ book: URL, _ tracks: [AlignmentAudio.Track]) throws -> BookAlignment {
        let publication = try PublicationOpener().open(url: book)
        let engine = try BookRendererTests.makePool()
        defer { engine.close() }
        let aligner = BookAligner(engine: engine, engineIdentity: "espeak-ng test")
        return try aligner.align(publication: publication, audio: AlignmentAudio(tracks: tracks), options: .init(jobs: 2, method: .dtw))
    }

    /// The share of `documents`' clips whose start the alignment places within `tolerance` s in the same file.
    static func accuracy(_ alignment: BookAlignment, truth documents: [NarratedDocument], tolerance: Double = 0.25) -> (within: Int, total: Int, errors: [Double]) {
        var within = 0, total = 0
        var errors: [Double] = []
        for document in documents {
            let sentences = alignment.sentences.filter { $0.href == document.href }
            for (clip, sentence) in zip(document.clips, sentences) {
                total += 1
                guard sentence.audioHref == document.audioFile.lastPathComponent, let begin = sentence.begin else { errors.append(.infinity); continue }
                let error = abs(begin - clip.begin)
                errors.append(error)
                if error <= tolerance { within += 1 }
            }
        }
        return (within, total, errors)
    }

    @Test func sentenceStartsOfAnotherVoiceAtAnotherTempo() async throws {
        let book = try Self.book()
        defer { try? FileManager.default.removeItem(at: book) }
        let narration = try await Self.narrate(book)
        defer { try? FileManager.default.removeItem(at: narration.folder) }
        let alignment = try Self.align(book, narration.documents.map { Self.track($0.audioFile) })
        let (within, total, errors) = Self.accuracy(alignment, truth: narration.documents)
        #expect(total == Self.chapters.joined().count)
        #expect(Double(within) >= 0.9 * Double(total), "\(within) of \(total) sentence starts within 250 ms; errors \(errors.map { String(format: "%.2f", $0) })")
        #expect(alignment.unplacedSentenceCount <= total / 10)
        #expect(alignment.chapters.count == 4)
        // The JSON reads back the same.
        let data = try alignment.jsonData()
        #expect(try BookAlignment(jsonData: data) == alignment)
        #expect(try alignment.jsonData() == data)
    }

    @Test func chaptersInAnotherOrderOneMissingAndOneDropped() async throws {
        let book = try Self.book()
        defer { try? FileManager.default.removeItem(at: book) }
        let narration = try await Self.narrate(book, rate: 1.1)
        defer { try? FileManager.default.removeItem(at: narration.folder) }
        let files = narration.documents.map(\.audioFile)
        // Chapter 3 heard before chapter 2; chapter 4 not narrated.
        let alignment = try Self.align(book, [files[0], files[2], files[1]].map { Self.track($0) })
        let heard = Array(narration.documents.prefix(3))
        let (within, total, errors) = Self.accuracy(alignment, truth: heard)
        #expect(Double(within) >= 0.9 * Double(total), "\(within) of \(total) within 250 ms; errors \(errors.map { String(format: "%.2f", $0) })")
        let missing = try #require(alignment.chapters.first { $0.href.hasSuffix("chapter-4.xhtml") })
        #expect(missing.aligned == 0, "chapter 4 is not in the audio, yet \(missing.aligned) of its sentences were placed")
        #expect(alignment.unmatchedText.contains { $0.href.hasSuffix("chapter-4.xhtml") && $0.reason == "not-narrated" })

        // One file with chapter 2 left out between chapters 1 and 3: chapter 2 is reported as not narrated and none
        // of its sentences has a time (it is not squeezed into the end of chapter 1), and the others are in place.
        let joined = try Self.concatenate([files[0], files[2], files[3]])
        defer { try? FileManager.default.removeItem(at: joined) }
        let dropped = try Self.align(book, [Self.track(joined, mediaType: .wav)])
        let chapter2 = try #require(dropped.chapters.first { $0.href.hasSuffix("chapter-2.xhtml") })
        #expect(chapter2.aligned == 0, "chapter 2 is not in the audio, yet \(chapter2.aligned) of its sentences were placed: \(dropped.sentences.filter { $0.href.hasSuffix("chapter-2.xhtml") }.map { $0.begin ?? -1 })")
        #expect(dropped.sentences.filter { $0.href.hasSuffix("chapter-2.xhtml") }.allSatisfy { $0.begin == nil && $0.audioHref == nil })
        #expect(dropped.unmatchedText.contains { $0.href.hasSuffix("chapter-2.xhtml") && $0.reason == "not-narrated" }, "\(dropped.unmatchedText)")
        // The truth of the joined file: each chapter's clips moved by the length of the files before it.
        var offset = 0.0
        var truth: [NarratedDocument] = []
        for index in [0, 2, 3] {
            var document = narration.documents[index]
            document.clips = document.clips.map { clip in
                var clip = clip
                clip.begin += offset
                clip.end += offset
                return clip
            }
            document.audioFile = joined
            truth.append(document)
            offset += narration.documents[index].duration
        }
        let heardJoined = Self.accuracy(dropped, truth: truth)
        #expect(Double(heardJoined.within) >= 0.9 * Double(heardJoined.total), "\(heardJoined.within) of \(heardJoined.total) within 250 ms; errors \(heardJoined.errors.map { String(format: "%.2f", $0) })")
    }

    /// `files` one after the other in one WAV file (FFmpeg's concat filter), in a temporary folder.
    static func concatenate(_ files: [URL]) throws -> URL {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-align-joined-\(UUID().uuidString).wav")
        var arguments = ["-nostdin", "-loglevel", "error"]
        for file in files { arguments += ["-i", file.path] }
        arguments += ["-filter_complex", (0..<files.count).map { "[\($0):a]" }.joined() + "concat=n=\(files.count):v=0:a=1", "-ac", "1", "-ar", "22050", out.path]
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), arguments, timeout: 120)
        try #require(result.status == 0, "ffmpeg: \(result.standardError)")
        return out
    }

    @Test func audioOfAnotherBookIsRefused() async throws {
        let book = try Self.book()
        defer { try? FileManager.default.removeItem(at: book) }
        let other = try TestBooks.epub(pages: [("other.xhtml", "application/xhtml+xml", TestBooks.xhtml([
            "The quick brown fox jumps over the lazy dog while seven wizards quietly box jugs of liquor behind the barn.",
            "Numbers: one thousand two hundred and thirty four, five hundred and sixty seven, eight hundred and ninety.",
            "Pack my box with five dozen liquor jugs, and how vexingly quick daft zebras jump over the fence at noon.",
            "Sphinx of black quartz, judge my vow; the five boxing wizards jump quickly across the frozen lake in winter.",
        ]))], language: "en")
        defer { try? FileManager.default.removeItem(at: other) }
        let narration = try await Self.narrate(other)
        defer { try? FileManager.default.removeItem(at: narration.folder) }
        #expect {
            _ = try Self.align(book, narration.documents.map { Self.track($0.audioFile) })
        } throws: { error in
            (error as? CommandFailure)?.code == "align-no-match"
        }
    }
}
