// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The evaluation set of `raudio align` (scripts/align/make-align-set.py, its CI subset) and its scorer
/// (scripts/align/score.py): the truth of a rendered book, and the figures the scorer gives alignments whose errors
/// are known because they were made from that truth.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), .serialized)
struct AlignCheckTests {
    /// The CI subset, made once for the suite's tests (a render of the French book with eSpeak NG: seconds).
    static let set: Result<URL, AlignSetFailure> = {
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-align-set-\(getpid())")
            let result = try AlignScripts.python([
                "make-align-set.py", "--raudio", ProcessRunner.raudioExecutable.path, "--subset", "ci", "--out", folder.path,
                "--corpus", try Corpus.file("epub").deletingLastPathComponent().path,
            ], timeout: 900)
            guard result.status == 0 else { return .failure(AlignSetFailure(message: result.standardOutput + result.standardError)) }
            return .success(folder.appendingPathComponent("ci"))
        } catch {
            return .failure(AlignSetFailure(message: "\(error)"))
        }
    }()

    static func truth(_ book: String, _ variant: String) throws -> (url: URL, json: [String: Any]) {
        let url = try set.get().appendingPathComponent(book).appendingPathComponent(variant).appendingPathComponent("truth.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return (url, json)
    }

    static func sentences(_ truth: [String: Any]) throws -> [[String: Any]] {
        try #require(truth["sentences"] as? [[String: Any]])
    }

    /// Scores clips (href, offset, file, start) against a truth file with score.py; returns its figures.
    static func score(truth: URL, clips: [[String: Any]], unmatchedAudio: [[String: Any]]? = nil) throws -> [String: Any] {
        let folder = try TemporaryDirectory()
        var alignment: [String: Any] = ["clips": clips]
        if let unmatchedAudio { alignment["unmatchedAudio"] = unmatchedAudio }
        try JSONSerialization.data(withJSONObject: alignment).write(to: URL(fileURLWithPath: folder.path("alignment.json")))
        let result = try AlignScripts.python(["score.py", truth.path, folder.path("alignment.json"), "--json", folder.path("score.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("score.json")))) as? [[String: Any]])
        return try #require(rows.first?["score"] as? [String: Any])
    }

    static func clips(_ sentences: [[String: Any]], moved: (Int, Double) -> Double?) -> [[String: Any]] {
        sentences.enumerated().compactMap { index, sentence in
            guard let start = moved(index, sentence["onset"] as? Double ?? 0) else { return nil }
            return ["href": sentence["href"]!, "offset": sentence["offset"]!, "file": sentence["file"]!, "start": start]
        }
    }

    @Test func truthOfARenderedBookTimesEverySentenceAndNamesWhatIsNotNarrated() throws {
        let base = try Self.truth("fr-village", "base").json
        let sentences = try Self.sentences(base)
        // A preface and four chapters of five sentences (headings are sentences of their own), one audio file each.
        #expect(sentences.count >= 25)
        #expect(Set(sentences.compactMap { $0["file"] as? String }).count == 5)
        for sentence in sentences {
            let start = try #require(sentence["start"] as? Double), onset = try #require(sentence["onset"] as? Double)
            let pause = try #require(sentence["pause"] as? Double)
            #expect(pause <= onset + 0.001 && start <= onset + 0.001, "\(sentence)")
        }
        let notes = try #require(base["notNarrated"] as? [[String: Any]])
        #expect(notes.count == 1 && (notes.first?["text"] as? String)?.hasPrefix("Cette note") == true, "\(notes)")

        // The announcement moves the first file's sentences by its 20 s and is an inserted interval.
        let intro = try Self.truth("fr-village", "intro").json
        let moved = try Self.sentences(intro)
        #expect(abs((moved[0]["start"] as? Double ?? 0) - (sentences[0]["start"] as? Double ?? 0) - 20) < 0.001)
        let inserted = try #require(intro["inserted"] as? [[String: Any]])
        #expect(inserted.count == 1 && inserted.first?["end"] as? Double == 20)

        // Slower by 10 %: every time divided by 0.9.
        let slower = try Self.sentences(Self.truth("fr-village", "tempo-0.90").json)
        let last = try #require(sentences.last?["start"] as? Double), lastSlower = try #require(slower.last?["start"] as? Double)
        #expect(abs(lastSlower - last / 0.9) < 0.002)

        // A dropped chapter's sentences are not narrated, and one file holds the rest.
        let drop = try Self.truth("fr-village", "drop").json
        #expect(try Self.sentences(drop).count < sentences.count)
        #expect((drop["notNarrated"] as? [[String: Any]])?.count ?? 0 > 1)
        #expect(drop["audio"] as? [String] == ["01.flac"])

        // The publisher's SMIL of the W3C excerpt: one sentence at 29.268 s, narration around it that is not the text.
        let w3c = try Self.truth("w3c-mol-audio", "base").json
        #expect(try Self.sentences(w3c).first?["start"] as? Double == 29.268)
        #expect((w3c["inserted"] as? [[String: Any]])?.count == 2)
    }

    @Test func scorerGivesTheFiguresOfAlignmentsMadeFromTheTruth() throws {
        let (url, truth) = try Self.truth("fr-village", "intro")
        let sentences = try Self.sentences(truth)

        let exact = try Self.score(truth: url, clips: Self.clips(sentences) { _, onset in onset + 0.1 })
        #expect(exact["within250ms"] as? Double == 100 && exact["within1s"] as? Double == 100)
        #expect(exact["medianError"] as? Double == 0.1)
        #expect((exact["insertedAligned"] as? [Any])?.isEmpty == true && (exact["notNarratedAligned"] as? [Any])?.isEmpty == true)

        // Half a second late: none within 250 ms, all within 1 s.
        let late = try Self.score(truth: url, clips: Self.clips(sentences) { _, onset in onset + 0.5 })
        #expect(late["within250ms"] as? Double == 0 && late["within1s"] as? Double == 100)

        // A quarter of the sentences left out are misses, counted in the shares.
        let partial = try Self.score(truth: url, clips: Self.clips(sentences) { index, onset in index % 4 == 0 ? nil : onset })
        #expect(partial["missing"] as? Int == (sentences.count + 3) / 4)
        #expect((partial["within250ms"] as? Double ?? 100) < 80)

        // An error that grows along each file is drift: the last third's mean error above the first's.
        let drifting = try Self.score(truth: url, clips: Self.clips(sentences) { _, onset in onset * 1.05 })
        let first = try #require(drifting["firstThirdMeanError"] as? Double), last = try #require(drifting["lastThirdMeanError"] as? Double)
        #expect(last > first + 0.2)

        // The first sentence placed inside the announcement is inserted audio aligned anyway.
        let swallowed = try Self.score(truth: url, clips: Self.clips(sentences) { index, onset in index == 0 ? 5 : onset })
        #expect((swallowed["insertedAligned"] as? [Any])?.count == 1)
        // Not reported as audio without text: the same.
        let unreported = try Self.score(truth: url, clips: Self.clips(sentences) { _, onset in onset }, unmatchedAudio: [])
        #expect((unreported["insertedAligned"] as? [Any])?.count == 1)
        let reported = try Self.score(truth: url, clips: Self.clips(sentences) { _, onset in onset },
                                      unmatchedAudio: [["file": "01.flac", "start": 0.0, "end": 19.5]])
        #expect((reported["insertedAligned"] as? [Any])?.isEmpty == true)

        // A clip on the footnote's text: not narrated, aligned anyway.
        let notes = try #require(truth["notNarrated"] as? [[String: Any]])
        var withNote = Self.clips(sentences) { _, onset in onset }
        withNote.append(["href": notes[0]["href"]!, "offset": notes[0]["offset"]!, "file": "01.flac", "start": 30.0])
        let noted = try Self.score(truth: url, clips: withNote)
        #expect((noted["notNarratedAligned"] as? [Any])?.count == 1)
    }
}

extension AlignCheckTests {
    /// The smallest book of the set through `raudio align` and the scorer: the W3C Moby-Dick excerpt, a person's
    /// narration (LibriVox) whose publisher's SMIL is the truth. The floor is what the method meets (docs/ALIGN.md):
    /// the sentence placed within 1 s, and the 29 s of announcement before it and the 43 s of chapter after it
    /// reported as audio that is not the text, not aligned.
    @Test func alignedSmallestBookMeetsTheFloor() throws {
        let book = try Self.set.get().appendingPathComponent("w3c-mol-audio")
        let folder = try TemporaryDirectory()
        let align = try ProcessRunner.raudio(["align", book.appendingPathComponent("book.epub").path,
                                              book.appendingPathComponent("base/audio/mobydick_1.mp3").path,
                                              "--to", "epub3", folder.path("aligned.epub"), "--alignment", folder.path("alignment.json")],
                                             timeout: 900)
        try #require(align.status == 0, "\(align.standardError)")
        let scored = try AlignScripts.python(["score.py", book.appendingPathComponent("base/truth.json").path, folder.path("aligned.epub"),
                                              "--report", folder.path("alignment.json"), "--json", folder.path("score.json")])
        try #require(scored.status == 0, "\(scored.standardError)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("score.json")))) as? [[String: Any]])
        let score = try #require(rows.first?["score"] as? [String: Any])
        #expect(score["placed"] as? Int == 1)
        #expect(score["within1s"] as? Double == 100, "\(score)")
        #expect((score["insertedAligned"] as? [Any])?.isEmpty == true, "\(score)")
    }
}

struct AlignSetFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { "make-align-set.py failed: \(message)" }
}

/// Runs the Python scripts of scripts/align (the standard library only).
enum AlignScripts {
    static var folder: URL { Corpus.projectRoot.appendingPathComponent("scripts/align") }

    static func python(_ arguments: [String], timeout: TimeInterval = 120) throws -> ProcessResult {
        var arguments = arguments
        arguments[0] = folder.appendingPathComponent(arguments[0]).path
        return try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, timeout: timeout)
    }
}
