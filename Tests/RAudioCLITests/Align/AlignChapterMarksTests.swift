// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// An M4B's chapter marks as hints to `raudio align`: a chapter is located at its mark when its narration starts
/// there, and searched for in the whole narration when it does not (a wrong mark is never trusted).
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), .serialized)
struct AlignChapterMarksTests {
    /// Seconds of quiet noise before the first chapter and after each: far more than the aligner looks around a mark.
    static let gap = 80.0

    /// Two M4Bs of one narration (a render to a Readium audiobook: a track per chapter), each chapter after `gap`
    /// seconds of quiet noise: `right.m4b` with a chapter mark at
    /// each chapter's start, `wrong.m4b` with each mark 70 s before it (in the noise), both with a first chapter over
    /// the opening noise. Returns the chapters' starts.
    static func narrations(of book: String, in folder: TemporaryDirectory) throws -> [Double] {
        let rendered = folder.path("rendered.audiobook")
        let render = try ProcessRunner.raudio(["render", book, "--voice", "en-gb-x-rp", "--speed", "0.9", "--to", "audiobook", rendered,
                                               "--cache", folder.path("speech")], timeout: 600)
        try #require(render.status == 0, "\(render.standardError)")
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import json, subprocess, sys, zipfile
            source, folder, gap = sys.argv[1], sys.argv[2], float(sys.argv[3])
            def run(*arguments):
                return subprocess.run(arguments, check=True, capture_output=True).stdout
            package = zipfile.ZipFile(source)
            tracks = [link["href"] for link in json.loads(package.read("manifest.json"))["readingOrder"]]
            parts, starts, position = [], [], 0.0
            noise = f"{folder}/noise.wav"
            run("sox", "-n", "-r", "22050", "-c", "1", "-b", "16", noise, "synth", str(gap), "brownnoise", "vol", "0.003")
            for index, track in enumerate(tracks):
                encoded = f"{folder}/track-{index}" + track[track.rfind("."):]
                with open(encoded, "wb") as handle:
                    handle.write(package.read(track))
                wav = f"{folder}/chapter-{index}.wav"
                run("ffmpeg", "-nostdin", "-v", "error", "-y", "-i", encoded, "-ac", "1", "-ar", "22050", wav)
                seconds = float(run("soxi", "-D", wav))
                parts += [noise, wav]
                position += gap
                starts.append(position)
                position += seconds
            parts.append(noise)
            whole = f"{folder}/whole.wav"
            run("sox", *parts, whole)
            for name, shift in (("right", 0.0), ("wrong", -70.0)):
                # An M4B's first chapter starts at 0 (MP4's chapter track): the noise before chapter 1 is one of its own.
                marks = [(0.0, "Opening")] + [(start + shift, f"Chapter {index + 1}") for index, start in enumerate(starts)]
                metadata = ";FFMETADATA1\\n"
                for index, (start, title) in enumerate(marks):
                    end = marks[index + 1][0] if index + 1 < len(marks) else position + gap
                    metadata += f"[CHAPTER]\\nTIMEBASE=1/1000\\nSTART={int(start * 1000)}\\nEND={int(end * 1000)}\\ntitle={title}\\n"
                with open(f"{folder}/{name}.txt", "w") as handle:
                    handle.write(metadata)
                run("ffmpeg", "-nostdin", "-v", "error", "-y", "-i", whole, "-i", f"{folder}/{name}.txt", "-map", "0:a",
                    "-map_metadata", "1", "-map_chapters", "1", "-c:a", "aac", "-b:a", "64k", f"{folder}/{name}.m4b")
            print(json.dumps(starts))
            """, rendered, folder.url.path, String(Self.gap)])
        try #require(made.status == 0, "\(made.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(made.standardOutput.utf8)) as? [Double])
    }

    /// The alignment's JSON and each chapter's first placed sentence's start.
    static func align(_ book: String, _ audio: String, in folder: TemporaryDirectory) throws -> (json: [String: Any], starts: [Double]) {
        let json = folder.path((audio as NSString).lastPathComponent + ".json")
        let run = try ProcessRunner.raudio(["align", book, audio, "--alignment", json], timeout: 900)
        try #require(run.status == 0, "\(run.standardError)")
        let alignment = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let chapters = try #require(alignment["chapters"] as? [[String: Any]])
        return (alignment, chapters.filter { ($0["sentences"] as? Int ?? 0) > 0 }.compactMap { $0["begin"] as? Double })
    }

    @Test func rightMarksLocateTheChaptersAndWrongOnesAreNotTrusted() throws {
        let folder = try TemporaryDirectory()
        let book = try PlayTextSyncTests.book(in: folder)
        let truth = try Self.narrations(of: book, in: folder)
        #expect(truth.count == PlayTextSyncTests.chapters.count)

        let right = try Self.align(book, folder.path("right.m4b"), in: folder)
        let rightMarks = try #require(right.json["chapterMarks"] as? [String: Any], "\(Array(right.json.keys))")
        // The opening's mark (at 0, in the noise) and one per chapter.
        #expect(rightMarks["given"] as? Int == truth.count + 1)
        #expect((rightMarks["confirmed"] as? Int ?? 0) >= truth.count, "\(rightMarks)")
        #expect(right.starts.count == truth.count)
        for (found, start) in zip(right.starts, truth) { #expect(abs(found - start) < 1, "a chapter starts at \(start) s, found at \(found)") }

        // Each mark 70 s early, in the noise: none confirmed, every chapter found by the search all the same.
        let wrong = try Self.align(book, folder.path("wrong.m4b"), in: folder)
        let wrongMarks = try #require(wrong.json["chapterMarks"] as? [String: Any])
        #expect(wrongMarks["given"] as? Int == truth.count + 1)
        #expect(wrongMarks["confirmed"] as? Int == 0, "\(wrongMarks)")
        #expect(wrong.starts.count == truth.count)
        for (found, start) in zip(wrong.starts, truth) { #expect(abs(found - start) < 1, "a chapter starts at \(start) s, found at \(found)") }
    }
}
