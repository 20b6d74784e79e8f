// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import RAudioState

/// `raudio play PATH`: plays an audiobook, reporting JSON-lines events on stdout and taking commands on stdin.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audiobook; events as JSON lines on stdout, commands on stdin.",
        discussion: """
            Commands (one per line, words or JSON): play, pause, toggle, stop, quit, seek 1:02:03, seek +30, \
            forward, back, next, previous, go <locator JSON>, speed 1.5, volume 0.8, status, bookmark [note], bookmarks, \
            go bookmark:ID, sleep 30m|+5m|chapter|off, chapter next|previous|N, toc; escape in a narrated EPUB. \
            An EPUB with media overlays plays its narration, with text-to-speech where there is no audio. \
            With --text BOOK.epub, an audiobook read by a person plays as that EPUB's narration: the two are synced \
            once as raudio align does (docs/ALIGN.md), the aligned EPUB kept in $XDG_CACHE_HOME/raudio/aligned. \
            See docs/events.md for the protocol and the exit codes.
            """
    )

    @Argument(help: "The audiobook (.audiobook, manifest.json, a folder or ZIP of audio files, one audio file) or an EPUB with media overlays; with --text, the narration of that EPUB.")
    var path: String?

    @Flag(help: "Play the book played last (the listening state's most recent `play`), from where it was left.")
    var last = false

    @Option(help: ArgumentHelp("The ebook of the audiobook (an EPUB): sync the two (as raudio align does, once: the alignment is kept in $XDG_CACHE_HOME/raudio/aligned) and play the audiobook as that EPUB's narration, with its text locators.", valueName: "book.epub"))
    var text: String?

    @OptionGroup var options: PlaybackOptions

    @OptionGroup(title: "Audio") var audio: AudioPlaybackOptions

    @OptionGroup(title: "Narrated EPUBs (media overlays)") var narration: NarrationOptions

    @OptionGroup(title: "LCP-protected books") var lcp: LCPOptions

    mutating func validate() throws {
        if last == (path != nil) { throw ValidationError("give the book to play, or --last for the one played last (not both)") }
        if text != nil {
            if last { throw ValidationError("--text goes with the audiobook to play, not --last (which plays the synced book played last as it is)") }
            if narration.forceTTS { throw ValidationError("--text plays the audiobook's own narration; --tts would read the text aloud instead: give one of them") }
        }
    }

    func run() async throws {
        if options.verbose { VerboseLog.enable() }
        try lcp.apply(stateDirectory: options.stateDir)
        var book = try path ?? Self.lastPlayed(stateDir: options.stateDir)
        if let text {
            // The aligned EPUB, made once and kept: played as any narrated EPUB, so that its events, resume,
            // bookmarks, chapters and read-along page are those of `raudio play OUT.epub`.
            do {
                book = try await LiveAlignment(audio: book, text: text).alignedEPUB()
            } catch {
                throw ExitCode(PlaySession(path: book, options: options, audio: audio, narration: narration).reportFailure(error).rawValue)
            }
        }
        if last { StandardStreams.printError("raudio: playing the book played last: \(book)") }
        let started = Date()
        let status = await PlaySession(path: book, options: options, audio: audio, narration: narration).run()
        if case .wav(let file) = options.output { WrittenFileReport(path: file, started: started).say() }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// The path of the book `raudio play` played last, from the listening state.
    static func lastPlayed(stateDir: String?) throws(CommandFailure) -> String {
        let directory = StateDirectory.resolve(option: stateDir)
        let (store, warnings) = ListeningStateStore.open(directory: directory)
        for warning in warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        guard let store else {
            throw CommandFailure(.badData, code: "state-unreadable", message: "--last: the listening state in \(directory.path) cannot be read")
        }
        let books: [BookRecord]
        do {
            books = try store.history()
        } catch {
            throw CommandFailure(.badData, code: "state-unreadable", message: "--last: \(store.file.path): \(error)")
        }
        guard let book = books.first(where: { $0.mode == "play" || $0.mode == "narration" }) else {
            throw CommandFailure(.inputNotFound, code: "no-last-book", message: "--last: no book has been played yet (the listening state is in \(directory.path))")
        }
        return book.path
    }
}
