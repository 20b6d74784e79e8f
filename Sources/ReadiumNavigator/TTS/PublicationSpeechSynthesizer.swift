// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Reads a publication aloud with a `TTSEngine`, utterance by utterance, reporting each utterance and
/// each word heard as Readium locators. Readium's `PublicationSpeechSynthesizer`.
///
/// Driven by the same `PlaybackStateMachine` and played by the same `AudioRenderer` as the
/// `AudioNavigator`: the renderer's items are utterances (`UtteranceRenderSource`), synthesized ahead
/// on the engine's thread while the current one plays, so no gap is added between them. An utterance
/// synthesis has not finished when its turn comes (the first one after a start or a seek) plays from
/// its first chunk (`SynthesisStreamDecoder`), so first audio does not wait for a whole sentence. A
/// target of the machine is an utterance index. Words are reported when heard: the renderer's heard
/// position (item, frame) is matched against the utterance's word boundaries, which come with the end
/// of its synthesis (the reports of an utterance still being synthesized wait for them, in order).
/// `go(to:)`, `next()`, `previous()` flush the output and cancel the synthesis ahead at once.
public actor PublicationSpeechSynthesizer {
    /// What happens, in order. Finishes when `close()` returns.
    public nonisolated let events: AsyncStream<SpeechSynthesizerEvent>

    let publication: Publication
    /// The engine that synthesizes each utterance (its voices, for choosing one by language).
    public nonisolated let engine: any TTSEngine
    var configuration: SpeechSynthesizerConfiguration
    let source: UtteranceRenderSource
    /// The state machine, the renderer and the common report handling (PublicationSpeechSynthesizer+Reports).
    let session: RenderSession<SpeechTarget, SpeechSynthesizerEvent>
    let contentWarnings: WarningLog?

    var epoch = 0
    /// The utterance announced (its `utterance` event sent) and how many of its words were reported.
    var announcedItem: Int?
    /// The utterance the last load asked for, until its `loaded` report (commands then count from it),
    /// or until it is announced when it was loaded still being synthesized.
    var targetItem: Int?
    /// The utterance a load reached while it was still being synthesized, until it is announced with
    /// the first heard position after its words are known (PublicationSpeechSynthesizer+Reports).
    var unannouncedLoad: Int?
    var announced: (utterance: SpeechUtterance, pcm: SynthesizedUtterance)?
    var reportedWords = 0
    /// The announced utterance moved to item `to` by a settings change (`respeakCurrentUtterance`),
    /// until that item is heard: it then takes the resumed PCM without a second `utterance` event.
    var resumed: (from: Int, to: Int)?
    var lastRange: Locator?
    /// The locator of the last utterance announced, kept after a stop.
    var lastUtteranceLocator: Locator?
    var hasLoadedAny = false
    var reportedWarnings = Set<String>()
    var reportedContentWarnings = 0

    /// Whether `publication` has text content this synthesizer can read (an EPUB with a content service).
    public static func canSpeak(publication: Publication) -> Bool {
        (try? publication.content(from: nil)) != nil
    }

    /// Starts the render thread (which makes the sink). Throws `.ttsUnknownVoice` for a
    /// `voiceIdentifier` the engine does not have.
    ///
    /// - Parameters:
    ///   - publication: the publication to read aloud (see `canSpeak(publication:)`).
    ///   - engine: the speech engine that synthesizes each utterance.
    ///   - components: the sink, speed processor and resampler the render thread uses.
    ///   - configuration: the voice, speed, pitch, volume and starting locator.
    ///   - contentWarnings: the log where the content service records malformed resources,
    ///     reported as `warning` events as the reading reaches them.
    public init(
        publication: Publication, engine: any TTSEngine, components: AudioComponents,
        configuration: SpeechSynthesizerConfiguration = .init(), contentWarnings: WarningLog? = nil
    ) throws(TTSError) {
        var configuration = configuration
        configuration.volume = VolumeLimiter.clamp(configuration.volume)
        var voice: TTSVoice?
        if let identifier = configuration.voiceIdentifier {
            guard let found = engine.voice(withIdentifier: identifier) else {
                throw TTSError(.ttsUnknownVoice, message: "no voice \"\(identifier)\"")
            }
            voice = found
        }
        self.publication = publication
        self.engine = engine
        self.configuration = configuration
        self.contentWarnings = contentWarnings
        let mainLanguage = publication.metadata.languages.first.map(Language.init(code:))
        let settings = UtteranceRenderSource.Settings(
            voice: voice, mainLanguage: mainLanguage ?? configuration.defaultLanguage,
            fallbackLanguage: configuration.defaultLanguage ?? Language(code: "en"),
            speed: configuration.speed, pitch: configuration.pitch, lookahead: configuration.lookahead)
        // The voice of an utterance in the book's language loads while the first utterance is found.
        engine.prepare(voice.map { .voice($0) } ?? .language(settings.mainLanguage ?? settings.fallbackLanguage))
        source = UtteranceRenderSource(engine: engine, settings: settings,
                                       media: EmbeddedMediaOpener(publication: publication, decoderFactory: components.decoderFactory))
        let renderer = AudioRenderer(source: source, components: components, speed: 1, volume: configuration.volume)
        session = RenderSession(renderer: renderer, start: SpeechTarget(item: 0), stopAfter: configuration.stopAfter)
        events = session.events
        receiveReports(from: renderer.reports)
    }

    // MARK: Reading

    /// Every voice of the engine.
    public nonisolated var availableVoices: [TTSVoice] { engine.availableVoices }

    /// The state in Readium's terms.
    public var state: SpeechSynthesizerState {
        let utterance = currentUtterance
        switch session.machine.state {
        case .idle, .stopped, .failed: return .stopped
        case .ended: return .ended
        case .paused: return utterance.map { .paused($0) } ?? .stopped
        case .playing: return utterance.map { .playing($0, range: lastRange) } ?? .stopped
        case .loading:
            guard let utterance else { return .stopped }
            return session.machine.intent == .play ? .playing(utterance, range: lastRange) : .paused(utterance)
        }
    }

    /// The state of the shared playback state machine (the CLI's `state` event).
    public var playbackState: PlaybackState { session.machine.state }

    /// The locator of the utterance being spoken (or the last one), nil before the first.
    public var currentLocation: Locator? { currentUtterance?.locator ?? lastUtteranceLocator }

    /// The utterance a load reached while it was still being synthesized (not announced yet), else
    /// the one announced.
    var currentUtterance: SpeechUtterance? {
        unannouncedLoad.flatMap { source.plannedUtterance(at: $0) } ?? announced?.utterance
    }

    /// The settings in use.
    public var currentConfiguration: SpeechSynthesizerConfiguration { configuration }

    // MARK: Commands

    /// Starts speaking from `locator` (nil: the beginning of the publication), whatever the state.
    /// Throws `ContentError` when the locator's href is not in the reading order.
    public func start(from locator: Locator? = nil) throws(ContentError) {
        let target = try plan(from: locator)
        if session.machine.state.isActive {
            handle(.seek(target))
            handle(.play)
        } else {
            session.machine.start = target
            handle(.play)
        }
    }

    /// Stops speaking and releases the output; `start(from:)` or `resume()` start over.
    public func stop() { handle(.stop) }
    /// Pauses at the word being heard.
    public func pause() { handle(.pause) }
    /// Continues the same PCM from where it paused; starts from the beginning (or the locator given
    /// to `go(to:)`) when nothing was planned yet.
    public func resume() {
        if epoch == 0, (try? start(from: nil)) != nil { return }
        handle(.play)
    }
    public func pauseOrResume() {
        if epoch == 0 { return resume() }
        handle(.toggle)
    }

    /// The next utterance, at once; at the last one, the end.
    public func next() {
        guard let current = targetItem ?? announcedItem else { return }
        handle(.seek(SpeechTarget(item: current + 1)))
    }

    /// The previous utterance, at once; at the first one, its start again.
    public func previous() {
        guard let current = targetItem ?? announcedItem else { return }
        let target = source.plannedUtterance(at: current - 1) != nil ? current - 1 : current
        handle(.seek(SpeechTarget(item: target)))
    }

    /// Goes to the utterance `locator` points at (its `text.highlight`, else its progression), keeping
    /// playing if playing. Throws `ContentError` when the href is not in the reading order.
    public func go(to locator: Locator) throws(ContentError) {
        let target = try plan(from: locator)
        if session.machine.state.isActive {
            handle(.seek(target))
        } else {
            session.machine.start = target
        }
    }

    /// The identifier of the voice chosen by `configuration` or `setVoice(_:)`; nil while the engine picks
    /// one per language.
    public var voiceIdentifier: String? { configuration.voiceIdentifier }

    /// Speaks with voice `identifier` from the word being heard on. Throws `.ttsUnknownVoice`.
    public func setVoice(_ identifier: String) throws(TTSError) {
        guard let voice = engine.voice(withIdentifier: identifier) else {
            throw TTSError(.ttsUnknownVoice, message: "no voice \"\(identifier)\"")
        }
        configuration.voiceIdentifier = voice.identifier
        source.settings.voice = voice
        respeakCurrentUtterance()
    }

    /// Changes the pitch multiplier (0.5...2) from the word being heard on.
    public func setPitch(_ pitch: Double) {
        configuration.pitch = min(max(pitch.isFinite ? pitch : 1, 0.5), 2)
        source.settings.pitch = configuration.pitch
        respeakCurrentUtterance()
    }

    /// Changes the rate multiplier (0.5...3, 1 = the voice preset's rate) from the word being heard on
    /// (the rest of the utterance is synthesized again; see `respeakCurrentUtterance`).
    public func setSpeed(_ speed: Double) {
        configuration.speed = min(max(speed.isFinite ? speed : 1, 0.5), 3)
        source.settings.speed = configuration.speed
        respeakCurrentUtterance()
    }

    /// Changes the output gain (0...1) at once.
    public func setVolume(_ volume: Double) {
        configuration.volume = VolumeLimiter.clamp(volume)
        session.renderer.setVolume(configuration.volume)
    }

    /// Stops the render thread and releases the output (a WAV file is complete when this returns).
    /// Idempotent. Emits nothing more after it returns.
    public func close() async {
        await session.close {
            source.reset(planner: UtterancePlanner(content: EmptyContent(), tokenizer: ContentTokenizer(), skippedRoles: [], startLocator: nil, base: 0))
        }
    }

    // MARK: Helpers

    /// A new plan of utterances from `locator`; returns the target of its first utterance.
    func plan(from locator: Locator?) throws(ContentError) -> SpeechTarget {
        let content = try publication.content(from: locator)
        epoch += 1
        let base = epoch * 2 * UtterancePlanner.span
        let tokenizer = ContentTokenizer(defaultLanguage: source.settings.mainLanguage ?? configuration.defaultLanguage)
        source.reset(planner: UtterancePlanner(content: content, tokenizer: tokenizer, skippedRoles: configuration.skippedRoles,
                                               startLocator: locator, base: base, forcedLanguage: configuration.defaultLanguage))
        announcedItem = nil
        targetItem = nil
        unannouncedLoad = nil
        resumed = nil
        return SpeechTarget(item: base)
    }

    /// Speaks the utterance being heard again with the new settings, from the start of the word being
    /// heard (the last `range` reported; the utterance's start when none was): the plan moves to a new
    /// index space (`UtteranceRenderSource.resume`) and the synthesizer seeks to the utterance's new
    /// index. The utterance is not announced again; its words keep locating against its whole text.
    /// An utterance still loading (not heard yet) is synthesized again whole.
    func respeakCurrentUtterance() {
        guard session.machine.state.isActive else { return }
        let item: Int
        var textStart: String.Index?
        let isHeardUtterance: Bool
        if let targetItem, resumed?.to != targetItem {
            // Another utterance is loading: nothing of it was heard.
            item = targetItem
            isHeardUtterance = false
        } else if let current = resumed?.to ?? announcedItem, let (_, pcm) = announced {
            item = current
            isHeardUtterance = true
            if reportedWords > 0 { textStart = pcm.wordBoundaries[reportedWords - 1].range.lowerBound }
        } else {
            return
        }
        // The page's own audio plays on as it is: the new voice, speed or pitch is for the speech after it.
        if source.plannedUtterance(at: item)?.isMedia == true { return }
        epoch += 1
        guard let newItem = source.resume(item: item, from: textStart, newBase: epoch * 2 * UtterancePlanner.span) else { return }
        resumed = isHeardUtterance ? announcedItem.map { (from: $0, to: newItem) } : nil
        handle(.seek(SpeechTarget(item: newItem)))
    }
}

/// A target of the state machine for speech: the index of an utterance in the current plan.
struct SpeechTarget: Sendable, Hashable {
    var item: Int
}

/// Content with nothing in it: what a closed synthesizer plans.
struct EmptyContent: Content {
    func iterator() -> any ContentIterator { EmptyContentIterator() }
}

final class EmptyContentIterator: ContentIterator {
    func next() throws(ContentError) -> (any ContentElement)? { nil }
    func previous() throws(ContentError) -> (any ContentElement)? { nil }
}
