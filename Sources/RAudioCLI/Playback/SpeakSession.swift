// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import RAudioState
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// One run of `raudio speak`: opens the EPUB, makes the eSpeak NG engine and a
/// `PublicationSpeechSynthesizer`, and hands them to the `SessionDriver` shared with `raudio play`.
struct SpeakSession {
    let command: SpeakCommand
    var writer: EventWriter {
        EventWriter(observers: [JSONLinesPrinter(printsJSONLines: !command.options.usesTerminalPlayer, selection: command.options.events ?? .all)])
    }

    /// Throws `CommandFailure` for problems found before any event is printed: an unknown voice (64),
    /// a missing file (66), a publication with nothing to speak (65).
    func run() async throws(CommandFailure) -> ExitStatus {
        // A Piper voice named with --voice loads in its worker (about a second) while the book opens.
        let pace: PiperInferencePace = command.options.rendersFasterThanRealTime ? .rendering : .live
        let piperLoad = SpeechEngineSetup.startLoading(voice: command.voice, options: command.engineOptions, pace: pace)
        // eSpeak NG (always made: the voice, or the fallback beside Piper or its workers) initializes and
        // lists its voices on its own thread meanwhile too.
        ESpeakEngine.startInitializing()
        // The content service warns about a malformed chapter when the reading reaches it (a `warning`
        // event): no need to parse the whole book before the first word.
        // Warnings met while the book opens (an LCP licence's status check) and remote retries become `warning`
        // events on stdout (and a line on stderr), as in `raudio play`.
        let writer = writer
        RemoteAccessSetup.warnings.route { warning in
            try? writer.report(.warning, code: warning.code, message: warning.description, href: warning.url)
        }
        let publication = try PublicationLoading.open(path: command.path, checksContentDocuments: false, prefersText: true)
        PublicationLoading.reportWarnings(of: publication)
        if publication.protection != nil { throw CommandFailure.protected(publication, path: command.path) }
        guard PublicationSpeechSynthesizer.canSpeak(publication: publication) else {
            throw CommandFailure(.badData, code: "no-text", message: "\(command.path): has no text to speak (\(publication.mediaType)); raudio speak reads EPUBs, HTML pages and text files")
        }
        let loaded = VoicePresets.load()
        for warning in loaded.warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        let memory = ListeningMemory.open(publication: publication, path: command.path, mode: "speak", options: command.options)
        let remembered = memory?.rememberedSettings
        let engine = try SpeechEngineSetup.make(presets: loaded.presets, presetsFolder: loaded.folder, options: command.engineOptions,
                                                voice: command.voice ?? remembered?.voice,
                                                bookLanguage: publication.metadata.language.map(Language.init(code:)), jobs: command.jobs,
                                                started: piperLoad, pace: pace)
        memory?.remember(BookSettings(speed: command.options.speed, volume: command.options.volume, voice: command.voice, pitch: command.pitch))
        var configuration = SpeechSynthesizerConfiguration(
            defaultLanguage: command.language.map(Language.init(code:)), speed: command.options.speed ?? remembered?.speed ?? 1,
            pitch: command.pitch ?? remembered?.pitch ?? 1, volume: command.options.volume ?? remembered?.volume ?? 1,
            skippedRoles: command.skippedRoles, stopAfter: command.options.duration)
        // Every worker has an utterance ahead of the one it is speaking.
        if command.jobs > 1 { configuration.lookahead = max(configuration.lookahead, 2 * command.jobs) }
        if let voice = command.voice {
            guard let found = VoiceResolver.voice(for: voice, in: engine) else {
                throw CommandFailure(.usage, code: "unknown-voice", message: "--voice \(voice): \(VoiceResolver.unknownMessage(voice, in: engine))")
            }
            configuration.voiceIdentifier = found.identifier
        } else if let voice = remembered?.voice, let found = VoiceResolver.voice(for: voice, in: engine) {
            configuration.voiceIdentifier = found.identifier
        }
        let service = publication.extensions[ContentServiceKey.key] as? EPUBContentService
        var components = AudioEngineComponents.make(output: command.options.output.destination(title: publication.title),
                                                     realtime: command.options.realtime)
        components.reconnectTimeout = command.options.reconnectTimeout
        let synthesizer: PublicationSpeechSynthesizer
        do {
            synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: components,
                                                           configuration: configuration, contentWarnings: service?.warnings)
        } catch {
            throw CommandFailure(.usage, code: "unknown-voice", message: "--voice: \(error.message)")
        }
        do {
            let chapters = ChapterMap(publication: publication)
            let settings = PlayerSettings(speed: configuration.speed, volume: configuration.volume, pitch: configuration.pitch,
                                          voice: Self.voiceInUse(configuration: configuration, engine: engine, publication: publication))
            let frontEnds = SessionFrontEnds.make(options: command.options, mode: .speech, chapters: chapters, publication: publication,
                                                  voices: Self.voices(of: engine, for: publication, choosing: settings.voice))
            if let terminal = frontEnds.terminal {
                BookWordCounting.start(publication: publication, skipping: configuration.skippedRoles) { terminal.take($0) }
            }
            let status = try await SessionDriver(writer: writer, keepOpen: command.options.keepOpen, memory: memory, sleep: command.options.sleepRequest,
                                                 settings: settings, chapters: chapters, publication: publication, frontEnds: frontEnds)
                .run(synthesizer, opened: PlayerEvent.opened(publication, duration: nil)) {
                    await moveToStart(synthesizer, publication: publication, service: service, memory: memory, chapters: chapters)
                }
            await synthesizer.close()
            SpeechEngineSetup.stopWorkers(of: engine)
            return status
        } catch {
            await synthesizer.close()
            SpeechEngineSetup.stopWorkers(of: engine)
            return .success  // stdout was closed: the reader went away.
        }
    }

    /// The voice the `settings` event names: the one asked for (`--voice`, or the book's last), else the
    /// one the engine picks for the book's main language, as `PublicationSpeechSynthesizer` does (its
    /// `dc:language`, else `--language`, else English), so that a listener always sees what speaks.
    static func voiceInUse(configuration: SpeechSynthesizerConfiguration, engine: any TTSEngine, publication: Publication) -> String {
        if let identifier = configuration.voiceIdentifier { return identifier }
        let language = publication.metadata.languages.first.map(Language.init(code:)) ?? configuration.defaultLanguage ?? Language(code: "en")
        return engine.voice(forLanguage: language).voice.identifier
    }

    /// The voice that speaks `publication`'s main language: the chosen one when it speaks it (a chosen voice
    /// speaks its own languages), else the engine's for that language.
    static func mainVoice(chosen: TTSVoice?, configuration: SpeechSynthesizerConfiguration, engine: any TTSEngine, publication: Publication) -> TTSVoice {
        let language = publication.metadata.languages.first.map(Language.init(code:)) ?? configuration.defaultLanguage ?? Language(code: "en")
        if let chosen, chosen.speaks(baseLanguageOf: language) || publication.metadata.languages.isEmpty { return chosen }
        return engine.voice(forLanguage: language).voice
    }

    /// The identifiers of the voices that speak `publication`'s language (its first), sorted, with the voice
    /// chosen among them: what the terminal player's `v` cycles through. Empty for a book without a language.
    static func voices(of engine: any TTSEngine, for publication: Publication, choosing chosen: String?) -> [String] {
        guard let language = publication.metadata.language.map(Language.init(code:)) else { return [] }
        let base = language.baseCode.lowercased()
        var identifiers = engine.availableVoices
            .filter { voice in ([voice.language] + voice.otherLanguages).contains { $0.baseCode.lowercased() == base } }
            .map(\.identifier)
        if let chosen, !identifiers.contains(chosen) { identifiers.append(chosen) }
        return Array(Set(identifiers)).sorted()
    }

    /// Plans from `--from`; returns a message when it is unusable.
    private func moveToStart(
        _ synthesizer: PublicationSpeechSynthesizer, publication: Publication, service: EPUBContentService?, memory: ListeningMemory?, chapters: ChapterMap
    ) async -> String? {
        let locator: Locator
        switch command.options.from {
        case nil:
            // Where the book was left: the utterance being spoken then.
            // (No auto-rewind: speech starts again at the start of the sentence it was in.)
            await memory?.resumeSayingWhere(synthesizer, chapters: chapters)
            return nil
        case .start?, .seconds?:
            return nil
        case .percentage(let percent)?:
            guard let found = service?.locator(atTotalProgression: percent / 100) else {
                return "--from \(percent)%: the publication has no reading order"
            }
            locator = found
        case .locatorJSON(let text)?:
            do {
                locator = try Locator(jsonString: text, source: "--from")
            } catch {
                return "--from: \(error.message)"
            }
        case .href(let text)?:
            switch StartPosition.locator(href: text, in: publication) {
            case .success(let found): locator = found
            case .failure(let failure): return failure.message
            }
        }
        do {
            try await synthesizer.go(to: locator)
        } catch {
            return "--from: \(error)"
        }
        return nil
    }
}
