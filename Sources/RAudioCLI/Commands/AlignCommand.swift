// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import ReadiumShared

/// `raudio align BOOK.epub AUDIO... --to epub3 OUT.epub`: lines a narrated audiobook up with its ebook and writes the
/// EPUB with Media Overlays pointing at that audio; progress on a terminal, JSON events on stdout otherwise.
struct AlignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "align",
        abstract: "Sync a narrated audiobook with its ebook: the EPUB with Media Overlays on the narration's own audio.",
        discussion: """
            AUDIO is a Readium audiobook (.audiobook or manifest), an M4B (its chapters are hints only), a folder of \
            audio files, or several audio files (taken in natural order). Each sentence of the book is synthesized by \
            eSpeak NG in its language and lined up with the narration by dynamic time warping (docs/ALIGN.md); \
            text the narration does not read and narration with no text are reported, not forced: a sentence that \
            cannot be placed gets no par. The audio is copied into the EPUB, or with --link-audio referenced from it \
            (OUT.epub.audio.json beside it names the files, by relative paths: keep them together). With stdout not a terminal, events are \
            written to it as JSON lines (docs/events.md, "raudio align"); on a terminal, a progress bar on stderr and \
            the coverage at the end.
            """
    )

    @Argument(help: "The book: an EPUB file.")
    var book: String

    @Argument(help: "The narration: an audiobook, an M4B, a folder of audio files, or audio files.")
    var audio: [String] = []

    @Option(name: .customLong("to"), parsing: .upToNextOption,
            help: ArgumentHelp("The output, as a format and a path: epub3 OUT.epub (the book with EPUB 3 Media Overlays on the narration).",
                               valueName: "format> <path"))
    var outputs: [String] = []

    @Flag(name: .customLong("link-audio"), help: "Reference the narration's audio files instead of copying them into the EPUB: OUT.epub.audio.json beside it names them by relative paths (raudio play finds them there; other reading systems do not). The audio must be files on disk.")
    var linkAudio = false

    @Option(help: ArgumentHelp("Also write the alignment as JSON (every sentence's audio file, begin, end and confidence; the coverage).", valueName: "path"))
    var alignment: String?

    @Option(help: "What each timed clip covers: sentence (the default). word is refused: this method does not place words as accurately as sentences.")
    var granularity: String = "sentence"

    @Option(help: "The method: model (the default: the warping's sentence starts refined by forced alignment with an acoustic model where there is one, English and French) or dtw (synthesis with eSpeak NG and dynamic time warping alone).")
    var method: String = "model"

    @Option(help: "The language of text that declares none (BCP-47), instead of the one identified from the text or the book's dc:language.")
    var language: String?

    @Option(help: "Comma-separated roles of the text that are not read aloud (as raudio render --skip); empty for none.")
    var skip: String = ContentRole.skippableNames.sorted().joined(separator: ",")

    @Option(name: .customLong("min-confidence"), help: ArgumentHelp("A sentence placed with less confidence than this (0 to 1) gets no time.", valueName: "c"))
    var minimumConfidence: Double = 0.3

    @Option(help: ArgumentHelp("eSpeak NG synthesis in this many worker processes, and as many threads for the warping. Default: one per core.", valueName: "N"))
    var jobs: Int = max(1, min(ProcessInfo.processInfo.activeProcessorCount, SpeakCommand.maximumJobs))

    /// `--to epub3 PATH`'s path.
    var epubOutput: String? {
        outputs.count == 2 && outputs[0].lowercased() == "epub3" ? outputs[1] : nil
    }

    func validate() throws {
        guard !audio.isEmpty else { throw ValidationError("give the narration after the book, for example raudio align book.epub book.m4b --to epub3 synced.epub") }
        if !outputs.isEmpty {
            guard outputs.count == 2 else { throw ValidationError("--to takes a format and a path, for example --to epub3 synced.epub") }
            guard outputs[0].lowercased() == "epub3" else { throw ValidationError("--to \(outputs[0]): not a format of raudio align; use epub3, for example --to epub3 synced.epub") }
        }
        guard epubOutput != nil || alignment != nil else {
            throw ValidationError("give an output: --to epub3 OUT.epub (and/or --alignment OUT.json)")
        }
        if linkAudio, epubOutput == nil {
            throw ValidationError("--link-audio goes with --to epub3 OUT.epub (it says how the EPUB refers to the audio)")
        }
        switch granularity {
        case "sentence": break
        case "word":
            throw ValidationError("--granularity word: raudio align places sentences; its words would not be as accurate (docs/ALIGN.md), so it does not write them; use --granularity sentence")
        default:
            throw ValidationError("--granularity must be sentence (word is not offered by raudio align)")
        }
        guard BookAligner.Options.Method(rawValue: method) != nil else { throw ValidationError("--method \(method): the methods are model and dtw") }
        if !(minimumConfidence.isFinite && (0...1).contains(minimumConfidence)) {
            throw ValidationError("--min-confidence must be between 0 and 1, for example --min-confidence 0.3")
        }
        if !(1...SpeakCommand.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be a whole number from 1 to \(SpeakCommand.maximumJobs), for example --jobs 2")
        }
        if let language, !Language(code: language).isWellFormed {
            throw ValidationError("--language \(language): not a BCP-47 language tag (for example fr, en-US)")
        }
        do {
            _ = try ContentRole.names(inList: skip)
        } catch {
            throw ValidationError("--skip: \(error.message)")
        }
        for output in [epubOutput, alignment].compactMap({ $0 }) {
            for input in [book] + audio where RenderCommand.isSameFile(output, input) {
                throw ValidationError("\(output): is \(input == book ? "the book" : "the narration") being read; write to another file")
            }
        }
    }

    var skippedRoles: Set<String> { (try? ContentRole.names(inList: skip)) ?? [] }

    func run() async throws {
        try await BookAlignRun(command: self).run()
    }
}
