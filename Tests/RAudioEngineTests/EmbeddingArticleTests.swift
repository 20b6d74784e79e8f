// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumStreamer
import Testing

/// The program of the DocC article "Embedding the engine" (RAudioEngine.docc/EmbeddingTheEngine.md) is
/// `Snippets/EmbedAudiobookPlayer.swift`, which the article embeds and `swift build` compiles: run it.
struct EmbeddingArticleTests {
    private static let snippetName = "EmbedAudiobookPlayer"

    /// The built snippet, beside the built raudio.
    private var executable: URL {
        ProcessRunner.builtProductsFolder.appendingPathComponent(Self.snippetName)
    }

    @Test func articleProgramPlaysTheSampleAudiobookToTheEndFollowingItsEvents() throws {
        let book = Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook")
        let result = try ProcessRunner.run(executable, [book.path, "--null"], timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.standardError)")
        let lines = result.outputLines
        let tracks = lines.filter { $0.hasPrefix("track ") }
        let publication = try PublicationOpener().open(url: book)
        #expect(tracks.count == publication.readingOrder.count, "\(tracks)")
        #expect(tracks.first == "track \(publication.readingOrder[0].title ?? publication.readingOrder[0].href)")
        let percentages = lines.filter { $0.hasPrefix("at ") }.compactMap { Int($0.dropFirst(3).dropLast()) }
        #expect(percentages.count > 10)
        #expect(percentages == percentages.sorted(), "progress went backwards: \(percentages)")
        #expect((percentages.last ?? 0) >= 95, "the book did not play to its end: \(percentages.suffix(3))")
    }

    @Test func articleEmbedsTheProgramAndTheProgramIsAboutADozenLines() throws {
        let root = Corpus.projectRoot
        let article = try String(contentsOf: root.appendingPathComponent("Sources/RAudioEngine/RAudioEngine.docc/EmbeddingTheEngine.md"), encoding: .utf8)
        #expect(article.contains("@Snippet(path: \"raudio/Snippets/\(Self.snippetName)\")"))
        let program = try String(contentsOf: root.appendingPathComponent("Snippets/\(Self.snippetName).swift"), encoding: .utf8)
        let statements = program.split(separator: "\n").filter { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return !text.isEmpty && !text.hasPrefix("//") && !text.hasPrefix("import ") && text != "}"
        }
        #expect(statements.count <= 15, "the article promises a dozen lines; the program has \(statements.count)")
    }
}
