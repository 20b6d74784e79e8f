// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import ReadiumShared

/// `raudio speak PATH`: reads an EPUB aloud with eSpeak NG; events as JSON lines on stdout, commands on stdin.
struct SpeakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speak",
        abstract: "Read an EPUB, an HTML page or a text file aloud; events as JSON lines on stdout, commands on stdin.",
        discussion: """
            The protocol of raudio play, extended (docs/events.md): each utterance is announced by an \
            "utterance" event and each word heard by a "range" event. Commands: play, pause, toggle, stop, \
            quit, next, previous (and forward, back: by utterance), go <locator JSON>, speed 1.5, volume 0.8, \
            pitch 1.2, voice fr, status, bookmark [note], bookmarks, go bookmark:ID, sleep 30m|+5m|chapter|off, \
            chapter next|previous|N, toc; seek is refused (speech has no timeline).
            """
    )

    @Argument(help: "An EPUB file or unpacked EPUB folder, an HTML page or a text file (UTF-8, UTF-16 or Windows-1252; a paragraph between blank lines), or the http(s) URL of one.")
    var path: String

    @OptionGroup var options: PlaybackOptions

    @OptionGroup var engineOptions: SpeechEngineOptions

    @OptionGroup(title: "LCP-protected books") var lcp: LCPOptions

    @Option(help: "A voice identifier (see raudio voices; piper:NAME for a neural Piper voice) or a BCP-47 language tag such as fr or en-GB. Default: the book's last voice, else one for its language.")
    var voice: String?

    @Option(help: "Pitch multiplier, 0.5 to 2.0 (1 = the voice's own). Default: the book's last pitch, else 1.")
    var pitch: Double?

    @Option(help: "The language of text that declares none (BCP-47), instead of the one identified from the text or the book's dc:language.")
    var language: String?

    @Option(help: ArgumentHelp("eSpeak NG synthesis in this many worker processes (1, the default: in raudio itself). Rendering to wav:FILE or null, 2 uses both cores of a two-core machine; with pulse it only synthesizes further ahead.", valueName: "N"))
    var jobs: Int = 1

    @Option(help: "Comma-separated roles not to speak, among: \(ContentRole.allNames.joined(separator: ", ")); media for audio and video (played in place otherwise); empty for none.")
    var skip: String = ContentRole.skippableNames.sorted().joined(separator: ",")

    func validate() throws {
        if let voice, voice.allSatisfy(\.isWhitespace) { throw ValidationError("--voice: " + VoiceResolver.emptyNameMessage) }
        if let pitch, !(pitch.isFinite && (0.5...2.0).contains(pitch)) {
            throw ValidationError("--pitch must be between 0.5 and 2.0, for example --pitch 1.2")
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
        if case .seconds? = options.from {
            throw ValidationError("--from: speech has no timeline; give a Locator as JSON or a percentage such as 42%")
        }
    }

    /// The most worker processes `--jobs` may ask for.
    static let maximumJobs = 32

    /// The roles `--skip` names (validated by `validate()`), `media` standing for `audio` and `video`.
    var skippedRoles: Set<String> { (try? ContentRole.names(inList: skip)) ?? [] }

    func run() async throws {
        if options.verbose { VerboseLog.enable() }
        try lcp.apply(stateDirectory: options.stateDir)
        let session = SpeakSession(command: self)
        let started = Date()
        let status: ExitStatus
        do {
            status = try await session.run()
            if case .wav(let file) = options.output { WrittenFileReport(path: file, started: started).say() }
        } catch {
            // As play and render do: a session that cannot start says why in a fatal `error` event on stdout
            // (its line on stderr too), and exits with the status of the one table.
            try? session.writer.report(.error, error, fatal: true)
            throw ExitCode(error.status.rawValue)
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
