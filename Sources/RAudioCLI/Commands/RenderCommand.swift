// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// `raudio render BOOK.epub --to FORMAT OUT …`: reads an EPUB into audio files, as `raudio speak` would read it
/// aloud; progress on a terminal, JSON events on stdout otherwise.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Read an EPUB into a read-aloud EPUB 3 (Media Overlays), an M4B audiobook with chapters, a Readium audiobook.",
        discussion: """
            Several --to in one run share one synthesis. Each utterance's audio is cached (--cache), so a render \
            that was stopped, even killed, and started again speaks only what it had not; two renders of the same \
            book with the same voice give byte-identical files. Nothing is left under an output's name unless \
            it is whole. With stdout not a terminal, events are written to it as JSON lines (docs/events.md, \
            "raudio render"); on a terminal, a progress bar on stderr.
            """
    )

    @Argument(help: "An EPUB file or unpacked EPUB folder (an HTML page or a text file for --to m4b and audiobook).")
    var path: String

    @Option(name: .customLong("to"), parsing: .upToNextOption,
            help: ArgumentHelp("An output, as a format and a path: epub3 OUT.epub (the book with EPUB 3 Media Overlays), m4b BOOK.m4b (AAC in MP4 with chapters), audiobook BOOK.audiobook (a Readium audiobook); repeatable.",
                               valueName: "format> <path"))
    var outputs: [String] = []

    @OptionGroup var engineOptions: SpeechEngineOptions

    @Option(help: "A voice identifier (see raudio voices; piper:NAME for a neural Piper voice) or a BCP-47 language tag such as fr or en-GB. Default: one for the book's language.")
    var voice: String?

    @Option(help: "Pitch multiplier, 0.5 to 2.0 (1 = the voice's own).")
    var pitch: Double = 1

    @Option(help: "Speech rate multiplier, 0.5 to 3.0 (1 = the voice's own words per minute).")
    var speed: Double = 1

    @Option(help: "The language of text that declares none (BCP-47), instead of the one identified from the text or the book's dc:language.")
    var language: String?

    @Option(help: ArgumentHelp("eSpeak NG synthesis in this many worker processes. Default: one per core.", valueName: "N"))
    var jobs: Int = max(1, min(ProcessInfo.processInfo.activeProcessorCount, SpeakCommand.maximumJobs))

    @Option(help: "Comma-separated roles not to speak, among: \(ContentRole.allNames.joined(separator: ", ")); media for audio and video (left out of a render); empty for none.")
    var skip: String = ContentRole.skippableNames.sorted().joined(separator: ",")

    @Option(help: "What each timed clip covers: sentence (the default) or word.")
    var granularity: String = NarrationGranularity.sentence.rawValue

    @Option(help: "The encoding of each content document's audio: mp3 (the default), aac (in MP4) or opus (in Ogg). An M4B is always AAC.")
    var audio: String = AudioFileCodec.mp3.rawValue

    @Option(help: ArgumentHelp("The folder of cached synthesized speech. Default: $XDG_CACHE_HOME/raudio/speech.", valueName: "folder"))
    var cache: String?

    @Option(help: ArgumentHelp("The most the speech cache keeps once a render is written, the speech used longest ago dropped first: a size such as 4G (the default), 500M or 0 (nothing kept), or unlimited.", valueName: "size"))
    var cacheSize: String?

    /// `--cache-size`, or its default.
    var cacheSizeOrDefault: String { cacheSize ?? "4G" }

    /// `--cache-size` in bytes: `.some(nil)` for `unlimited`, nil when it is not a size (refused by `validate()`).
    var cacheLimit: Int64?? {
        cacheSizeOrDefault.lowercased() == "unlimited" ? .some(nil) : ByteSize.parse(cacheSizeOrDefault).map { .some($0) }
    }

    @Option(help: ArgumentHelp("Synthesize only share I of N of the book (1 to N, the same cut on every machine) into a part file: --shard 2/3 --to part 2.rpart. Join the parts with --merge.", valueName: "I/N"))
    var shard: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The part files of every share (--shard), in any order: render the outputs from them, byte for byte what one render makes.", valueName: "part"))
    var merge: [String] = []

    /// Whether `a` and `b` name one file: the same path once links are resolved, or the same device and inode.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        let resolved = { (path: String) in URL(fileURLWithPath: (path as NSString).expandingTildeInPath).resolvingSymlinksInPath().standardizedFileURL.path }
        if resolved(a) == resolved(b) { return true }
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The outputs `--to` names, in order (validated by `validate()`).
    var requestedOutputs: [RenderOutput] {
        stride(from: 0, to: outputs.count - 1, by: 2).compactMap { index in
            RenderOutput.Format(rawValue: outputs[index].lowercased()).map { RenderOutput(format: $0, path: outputs[index + 1]) }
        }
    }

    func validate() throws {
        if let voice, voice.allSatisfy(\.isWhitespace) { throw ValidationError("--voice: " + VoiceResolver.emptyNameMessage) }
        guard !outputs.isEmpty else {
            throw ValidationError("give at least one output, for example --to m4b book.m4b")
        }
        guard outputs.count % 2 == 0 else {
            throw ValidationError("--to takes a format and a path, for example --to m4b book.m4b --to audiobook book.audiobook")
        }
        for index in stride(from: 0, to: outputs.count, by: 2) {
            guard let format = RenderOutput.Format(rawValue: outputs[index].lowercased()) else {
                throw ValidationError("--to \(outputs[index]): not a format; use epub3, m4b or audiobook, for example --to epub3 narrated.epub")
            }
            if format == .part, shard == nil {
                throw ValidationError("--to part: a part file holds one share of a book: give --shard I/N, for example --shard 1/3 --to part 1.rpart")
            }
            if format != .part, shard != nil {
                throw ValidationError("--shard writes a part file only: --to part FILE (then --merge the parts into \(format.rawValue))")
            }
        }
        if let shard {
            guard RenderShard(parsing: shard) != nil else {
                throw ValidationError("--shard \(shard): give I/N with 1 ≤ I ≤ N ≤ \(RenderShard.maximumCount), for example --shard 2/3")
            }
            guard merge.isEmpty else { throw ValidationError("--shard and --merge do not go together: render each share, then merge the parts") }
            guard outputs.count == 2 else { throw ValidationError("--shard writes one part file: --to part FILE") }
        }
        let paths = requestedOutputs.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path }
        if Set(paths).count != paths.count {
            throw ValidationError("--to: two outputs have the same path")
        }
        // An output written over what is read would replace the book (or a part) with the render of it.
        for output in requestedOutputs {
            for input in [path] + merge where Self.isSameFile(output.path, input) {
                throw ValidationError("--to \(output.format.rawValue) \(output.path): is \(input == path ? "the book" : "a part") being read; write the render to another file")
            }
        }
        if cacheLimit == nil {
            throw ValidationError("--cache-size \(cacheSizeOrDefault): give a size such as 4G, 500M or 0 (nothing kept), or unlimited")
        }
        if !(pitch.isFinite && (0.5...2.0).contains(pitch)) {
            throw ValidationError("--pitch must be between 0.5 and 2.0, for example --pitch 1.2")
        }
        if !(speed.isFinite && (0.5...3.0).contains(speed)) {
            throw ValidationError("--speed must be between 0.5 and 3.0, for example --speed 1.5")
        }
        if !(1...SpeakCommand.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be a whole number from 1 to \(SpeakCommand.maximumJobs), for example --jobs 2")
        }
        if let language, !Language(code: language).isWellFormed {
            throw ValidationError("--language \(language): not a BCP-47 language tag (for example fr, en-US)")
        }
        if NarrationGranularity(rawValue: granularity) == nil {
            throw ValidationError("--granularity must be sentence or word")
        }
        if AudioFileCodec(rawValue: audio) == nil {
            throw ValidationError("--audio must be mp3, aac or opus")
        }
        do {
            _ = try ContentRole.names(inList: skip)
        } catch {
            throw ValidationError("--skip: \(error.message)")
        }
    }

    var skippedRoles: Set<String> { (try? ContentRole.names(inList: skip)) ?? [] }

    func run() async throws {
        try await BookRenderRun(command: self).run()
    }
}
