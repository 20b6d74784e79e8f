// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Reacts to one input at a time: prints navigator events, runs commands, stops on signals.
///
/// Returns an exit status from `handle` when the session must end.
public struct SessionLoop {
    public let controller: any PlaybackController
    /// Its `answersTo` is set while a command from an IPC client is handled.
    public var writer: EventWriter
    public let keepOpen: Bool
    public private(set) var finalStatus: ExitStatus = .success
    public private(set) var lastLocator: Locator?
    private var lastState: PlaybackState?
    /// Set once a stop was asked for (quit, signal): the next terminal state ends the session.
    public private(set) var isQuitting = false
    private var fatalStatus: ExitStatus?

    /// The listening state to keep up to date, unless `--no-state`.
    public let memory: ListeningMemory?

    /// The sleep timer, when the driver gives one.
    public let sleepTimer: SleepTimer?
    /// The speed, volume (which the sleep timer fades from and restores), pitch and voice the listener chose.
    public var settings: PlayerSettings
    public var volume: Double { settings.volume }
    /// The table of contents, to follow chapters (`chapter` events and commands, `sleep chapter`).
    public var chapters: ChapterMap? {
        didSet { memory?.chapters = chapters }
    }
    /// The table-of-contents entry being heard (an index into `chapters.entries`).
    public var currentChapter: Int?
    /// The publication, whose text entries' `#id`s are placed in a file as soon as an utterance reaches it.
    public var publication: Publication?
    /// A command moved the position (seek, go, chapter...) and the navigator has not settled there yet:
    /// a chapter change meanwhile is the listener's move, not a chapter heard to its end (`sleep chapter`).
    public var isNavigating = false
    /// Seconds of audio fetched ahead of a locator (a remote book): `status`'s `buffer`.
    public var bufferedSeconds: (@Sendable (Locator) -> Double?)?

    public init(controller: any PlaybackController, writer: EventWriter, keepOpen: Bool, memory: ListeningMemory? = nil,
         sleepTimer: SleepTimer? = nil, settings: PlayerSettings = PlayerSettings(), chapters: ChapterMap? = nil) {
        self.controller = controller
        self.writer = writer
        self.keepOpen = keepOpen
        self.memory = memory
        self.sleepTimer = sleepTimer
        self.settings = settings
        self.chapters = chapters
        memory?.chapters = chapters
    }

    /// Whether the publication was played to its end.
    public var reachedTheEnd: Bool { lastState == .ended }

    public mutating func handle(_ input: SessionInput) async throws(ReaderGone) -> ExitStatus? {
        switch input {
        case .navigator(let event):
            memory?.note(event)
            // A chapter starts with its first utterance: it is announced before that utterance, whatever the
            // output's pace (faster than real time, the background placing of its file came ~100 utterances late).
            if let locator = event.innermost.utteranceLocator { try await followChapters(at: locator) }
            let status = try handle(event)
            if let chapters, event.mayChangeChapter(in: chapters) { try await followChapters() }
            if case .stateChanged(let state, _) = event.innermost {
                sleepTimer?.follow(isPlaying: state == .playing)
                if state != .loading { isNavigating = false }
            }
            if sleepTimer?.untilChapterEnd == true, case .position = event { try await fadeBeforeChapterEnd() }
            return status
        case .navigatorFinished:
            return fatalStatus ?? .success
        case .command(let command):
            writer.answersTo = command.origin
            defer {
                writer.answersTo = .everyone
                command.handled()
            }
            switch command.parsed {
            case .success(let request):
                return try await handle(request)
            case .failure(let error):
                try writer.report(.error, code: error.code.rawValue, message: error.message, id: error.id)
                return nil
            }
        case .stopRequested:
            return try await quit()
        case .sleepTick:
            try await sleepTick()
            return nil
        case .chaptersPlaced(let placed):
            chapters = placed
            try await followChapters()
            return nil
        case .stopTimeout:
            // The navigator did not confirm the stop: say where we were and leave.
            try stoppedWithoutItsEvent(at: lastLocator)
            return fatalStatus ?? .success
        }
    }

    private mutating func handle(_ event: SessionEvent, audioLocator: Locator? = nil) throws(ReaderGone) -> ExitStatus? {
        switch event {
        case .withAudioLocator(let inner, let audio):
            return try handle(inner, audioLocator: audio)
        case .narration(let text, let language, let locator):
            lastLocator = locator
            try writer.write(.narration(text: text, language: language, locator: locator, audioLocator: audioLocator))
        case .stateChanged(let state, let locator):
            lastLocator = locator
            lastState = state
            try writer.write(.state(state, locator: locator, audioLocator: audioLocator))
            switch state {
            case .failed:
                return fatalStatus ?? .badData
            case .ended, .stopped:
                if isQuitting || !keepOpen { return fatalStatus ?? .success }
            default:
                break
            }
        case .position(let locator):
            lastLocator = locator
            try writer.write(.position(locator, audioLocator: audioLocator))
        case .track(let index, let link, let locator):
            lastLocator = locator
            try writer.write(.track(index: index, link: link, locator: locator))
        case .utterance(let text, let language, let voice, let locator, let languageSource):
            lastLocator = locator
            try writer.write(.utterance(text: text, language: language, voice: voice, locator: locator, languageSource: languageSource))
        case .media(let kind, let source, let locator):
            lastLocator = locator
            try writer.write(.media(kind: kind, source: source, locator: locator))
        case .range(let locator):
            try writer.write(.range(locator))
        case .warning(let issue):
            try writer.report(.warning, code: issue.code, message: issue.message, fatal: false, href: issue.href, locator: issue.locator)
        case .error(let issue):
            if issue.fatal { fatalStatus = ExitStatus(fatalIssueCode: issue.code) }
            try writer.report(.error, code: issue.code, message: issue.message, fatal: issue.fatal, href: issue.href, locator: issue.locator ?? lastLocator)
        }
        return nil
    }

    private mutating func handle(_ request: PlayerCommandRequest) async throws(ReaderGone) -> ExitStatus? {
        if request.command.movesThePosition { isNavigating = true }
        switch request.command {
        case .stop:
            try writer.write(.ack(request.command, id: request.id))
            if keepOpen { await controller.stop() } else { return try await quit() }
        case .quit:
            try writer.write(.ack(request.command, id: request.id))
            return try await quit()
        case .status:
            try writer.write(.ack(request.command, id: request.id))
            let (state, locator) = await controller.status()
            let heard = locator ?? lastLocator
            try writer.write(.state(state, locator: heard, buffer: heard.flatMap { bufferedSeconds?($0) }))
        case .bookmark, .bookmarks, .goToBookmark:
            try await handleBookmark(request)
        case .sleep(let sleep):
            try await setSleep(sleep, id: request.id)
        case .chapter(let chapter):
            try await goToChapter(chapter, request: request)
        case .toc:
            try writer.write(.ack(request.command, id: request.id))
            try writer.write(.toc(chapters?.entries ?? [], current: currentChapter))
        default:
            do {
                try await controller.perform(request.command)
            } catch {
                try writer.report(.error, code: error.code, message: error.message, fatal: false, id: request.id)
                return nil
            }
            // What is remembered and announced is the setting in effect (`voice fr` names the voice chosen).
            let setting = await controller.setting(after: request.command)
            memory?.note(setting)
            try writer.write(.ack(request.command, id: request.id))
            if settings.take(setting) { try writer.write(.settings(settings)) }
        }
        return nil
    }

    /// The final `stopped` state when the navigator's own event has not come: written, and given to the listening
    /// memory, which saves this place (a quit right after a seek or `go` is where the listener left, not where the
    /// last event was).
    private mutating func stoppedWithoutItsEvent(at locator: Locator?) throws(ReaderGone) {
        memory?.note(.stateChanged(.stopped, locator))
        try writer.write(.state(.stopped, locator: locator))
    }

    /// Stops the output and ends the session with a final `state` event.
    private mutating func quit() async throws(ReaderGone) -> ExitStatus? {
        isQuitting = true
        if let lastState, [.stopped, .ended, .failed].contains(lastState) {
            try writer.write(.state(lastState, locator: await controller.status().locator ?? lastLocator))
            return fatalStatus ?? .success
        }
        await controller.stop()
        let state = await controller.status().state
        if [.stopped, .ended, .failed, .idle].contains(state) {
            // The stop is done; its state event may still be in flight: print the final one ourselves.
            try stoppedWithoutItsEvent(at: await controller.status().locator ?? lastLocator)
            return fatalStatus ?? .success
        }
        return nil
    }
}
