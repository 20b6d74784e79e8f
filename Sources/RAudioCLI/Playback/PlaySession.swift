// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import RAudioState
import ReadiumNavigator
import ReadiumShared

/// One run of `raudio play`: opens the publication, drives an `AudioNavigator`, prints its events,
/// obeys stdin commands and signals, and decides the exit status.
struct PlaySession {
    let path: String
    let options: PlaybackOptions
    let audio: AudioPlaybackOptions
    var narration = NarrationOptions()
    var writer: EventWriter { EventWriter(observers: [JSONLinesPrinter(printsJSONLines: !options.usesTerminalPlayer, selection: options.events ?? .all)]) }

    /// Runs until the publication ends (unless `--keep-open`), `quit`, a stop, the end of `--duration`
    /// or of a clip, a signal, or a fatal error. Returns the exit status.
    func run() async -> ExitStatus {
        do {
            return try await runReportingEvents()
        } catch {
            // stdout was closed: the app reading the events went away.
            return .success
        }
    }

    private func runReportingEvents() async throws(ReaderGone) -> ExitStatus {
        routeRemoteWarnings()
        RemoteAccessSetup.setCacheCapacity(audio.cacheBytes)
        var publication: Publication
        do {
            publication = try PublicationLoading.open(path: path)
        } catch {
            try writer.report(.error, error, fatal: true)
            return error.status
        }
        PublicationLoading.reportWarnings(of: publication)
        // Track titles and chapters of a folder of audio files come from their tags; a percentage needs
        // every duration, which the manifest may not give.
        if publication.mediaType == .zab || needsAllDurations && publication.readingOrder.contains(where: { $0.duration == nil }) {
            publication = PublicationAudioDetails.completed(publication)
        }
        if publication.protection != nil {
            let failure = CommandFailure.protected(publication, path: path)
            try writer.report(.error, code: failure.code, message: failure.message, fatal: true)
            return failure.status
        }
        var components = AudioEngineComponents.make(output: outputDestination(title: publication.title), realtime: options.realtime)
        components.reconnectTimeout = options.reconnectTimeout
        let isNarration = publication.mediaOverlays != nil || (narration.forceTTS && publication.mediaType == .epub)
        let memory = ListeningMemory.open(publication: publication, path: path, mode: isNarration ? "narration" : "play", options: options,
                                            autoRewind: audio.autoRewindSteps)
        let configuration = configuration(remembering: memory)
        memory?.remember(BookSettings(speed: options.speed, volume: options.volume))
        if isNarration {
            return try await playNarration(of: publication, components: components, configuration: configuration, memory: memory)
        }
        var analysis: LoudnessAnalysis?
        if audio.normalize {
            let resumed = memory?.resumePoint.flatMap { point in publication.readingOrder.firstIndex { $0.hrefWithoutFragment == point.locator.href } }
            analysis = LoudnessAnalysis(publication: publication, store: memory?.store, key: memory?.key, startingAt: resumed ?? 0)
            components.decoderFactory = NormalizingDecoderFactory(base: components.decoderFactory, gains: analysis!.gains)
        }
        defer { analysis?.cancel() }
        let navigator: AudioNavigator
        do {
            navigator = try AudioNavigator(publication: publication, components: components, configuration: configuration)
        } catch {
            return try reportUnplayable(error, publication: publication)
        }
        // From here on, remote retries reach every observer as the navigator's `warning` events.
        RemoteAccessSetup.warnings.route { [navigator] warning in
            navigator.reportWarning(NavigatorIssue(code: .init(rawValue: warning.code), message: warning.description, href: warning.url, fatal: false))
        }
        let opened = PlayerEvent.opened(publication, duration: await navigator.totalDuration)
        let chapters = ChapterMap(publication: publication, timeline: await navigator.playbackTimeline)
        let settings = PlayerSettings(speed: configuration.speed, volume: configuration.volume)
        let status = try await SessionDriver(writer: writer, keepOpen: options.keepOpen, memory: memory, sleep: options.sleepRequest, settings: settings,
                                             chapters: chapters, publication: publication, frontEnds: .make(options: options, mode: .audiobook, chapters: chapters, publication: publication),
                                             bufferedSeconds: { [publication] locator in RemoteAccessSetup.bufferedSeconds(in: publication, at: locator) }).run(navigator, opened: opened) {
            await applyStartPosition(to: navigator, publication: publication, memory: memory, chapters: chapters)
        }
        // A track still waiting on a slow server must not hold the close up.
        RemoteAccessSetup.cancellation.cancel()
        await navigator.close()
        return status
    }

    /// A narrated EPUB: its media overlays through a `MediaOverlayNavigator`.
    private func playNarration(of publication: Publication, components: AudioComponents, configuration: AudioNavigatorConfiguration,
                               memory: ListeningMemory?) async throws(ReaderGone) -> ExitStatus {
        var engine: ESpeakEngine?
        if !narration.noTTS {
            let loaded = VoicePresets.load()
            for warning in loaded.warnings { StandardStreams.printError("raudio: warning: \(warning)") }
            do {
                engine = try ESpeakEngine(presets: loaded.presets)
            } catch {
                try writer.report(.warning, code: error.code.rawValue, message: "text-to-speech is unavailable (\(error.message)); only recorded narration plays", fatal: false)
            }
        }
        let navigator: MediaOverlayNavigator
        do {
            navigator = try MediaOverlayNavigator(publication: publication, components: components, engine: engine,
                                                  planOptions: narration.planOptions, configuration: configuration)
        } catch {
            return try reportUnplayable(error, publication: publication)
        }
        let opened = PlayerEvent.opened(publication, duration: nil)
        let chapters = ChapterMap(publication: publication)
        let settings = PlayerSettings(speed: configuration.speed, volume: configuration.volume)
        let status = try await SessionDriver(writer: writer, keepOpen: options.keepOpen, memory: memory, sleep: options.sleepRequest, settings: settings,
                                             chapters: chapters, publication: publication, frontEnds: .make(options: options, mode: .narration, chapters: chapters, publication: publication)).run(navigator, opened: opened) {
            guard let from = options.from else {
                await memory?.resumeSayingWhere(navigator, chapters: chapters)
                return nil
            }
            switch from {
            case .start: return nil
            case .locatorJSON(let text): return await go(navigator, toLocatorJSON: text)
            case .href(let text): return await go(navigator, toHref: text, in: publication)
            case .seconds, .percentage: return "--from: a narrated book starts from a locator (JSON) or a file of its reading order, not a time or percentage"
            }
        }
        RemoteAccessSetup.cancellation.cancel()
        await navigator.close()
        return status
    }

    /// A failure before the publication is opened (`--text`'s alignment): an `error` event (and its line on stderr);
    /// returns the exit status.
    func reportFailure(_ failure: CommandFailure) -> ExitStatus {
        try? writer.report(.error, code: failure.code, message: failure.message, fatal: true)
        return failure.status
    }

    /// Retries of remote resources met before a navigator exists (or while a narrated book plays) become
    /// `warning` events on stdout (and a line on stderr), from whichever thread met them; once an
    /// `AudioNavigator` is made they go through its events to every observer instead.
    private func routeRemoteWarnings() {
        let writer = writer
        RemoteAccessSetup.warnings.route { warning in
            try? writer.report(.warning, code: warning.code, message: warning.description, href: warning.url)
        }
    }

    /// Whether `--from` is a percentage or a time, which need the publication's whole duration up front
    /// (a time past the end is refused).
    private var needsAllDurations: Bool {
        switch options.from {
        case .percentage, .seconds: true
        default: false
        }
    }

    /// The navigator's settings: the options, else what the book was last played with.
    private func configuration(remembering memory: ListeningMemory?) -> AudioNavigatorConfiguration {
        let remembered = memory?.rememberedSettings
        var configuration = AudioNavigatorConfiguration()
        configuration.speed = options.speed ?? remembered?.speed ?? 1
        configuration.volume = options.volume ?? remembered?.volume ?? 1
        configuration.positionInterval = audio.interval
        configuration.stopAfter = options.duration
        return configuration
    }

    private func outputDestination(title: String) -> OutputDestination {
        options.output.destination(title: title)
    }

    /// Moves to `--from` before playing; returns a message when it is unusable.
    private func applyStartPosition(to navigator: AudioNavigator, publication: Publication, memory: ListeningMemory?, chapters: ChapterMap) async -> String? {
        guard let from = options.from else {
            await memory?.resumeSayingWhere(navigator, chapters: chapters)
            return nil
        }
        switch from {
        case .start:
            break
        case .seconds(let seconds):
            // Past the end there is nothing to hear: playing "from" there would mark the book finished.
            if let total = await navigator.totalDuration, seconds >= total {
                return "--from \(PublicationSummary.clock(seconds)): the book is \(PublicationSummary.clock(total)) long; give a time before its end"
            }
            await navigator.seek(to: seconds)
        case .percentage(let percent):
            if let total = await navigator.totalDuration {
                await navigator.seek(to: total * percent / 100)
            } else {
                return "--from \(percent)%: the publication's duration is unknown"
            }
        case .locatorJSON(let text):
            return await go(navigator, toLocatorJSON: text)
        case .href(let text):
            return await go(navigator, toHref: text, in: publication)
        }
        return nil
    }

    /// Goes to the `--from` file of the reading order (with its fragment); returns a message when there is none.
    private func go(_ navigator: some Navigator, toHref text: String, in publication: Publication) async -> String? {
        switch StartPosition.locator(href: text, in: publication) {
        case .failure(let failure):
            return failure.message
        case .success(let locator):
            do {
                try await navigator.go(to: locator)
            } catch {
                return "--from \(text): \(error)"
            }
            return nil
        }
    }

    /// Goes to the `--from` locator given as JSON; returns a message when it is unusable.
    private func go(_ navigator: some Navigator, toLocatorJSON text: String) async -> String? {
        do {
            try await navigator.go(to: Locator(jsonString: text, source: "--from"))
        } catch let error as Locator.ParseError {
            return "--from: \(error.message)"
        } catch {
            return "--from: \(error)"
        }
        return nil
    }

    /// Reports a navigator that could not be made as a fatal `error` event; returns its exit status
    /// (`ExitStatus(for:)`: 65 for an `AudioNavigatorError`, 70 for an error raudio does not expect).
    private func reportUnplayable(_ error: any Error, publication: Publication) throws(ReaderGone) -> ExitStatus {
        if let error = error as? AudioNavigatorError {
            // A book of text (or whose only audio is in its pages) is read aloud by `speak`.
            let advice = error.code == .noAudio && PublicationSpeechSynthesizer.canSpeak(publication: publication) ? "; it has text: read it aloud with raudio speak \(path)" : ""
            try writer.report(.error, code: error.codeName, message: "\(path): \(error.message)\(advice)", fatal: true, href: path)
        } else {
            try writer.report(.error, code: "internal-error", message: "\(path): \(error)", fatal: true)
        }
        return ExitStatus(for: error)
    }
}
