// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// `raudio speak`'s controller: a `PublicationSpeechSynthesizer` behind `PlaybackController`.
///
/// Time-based commands make no sense for speech: `seek` is refused, `forward`/`back` move by utterance
/// like `next`/`previous`; `speed` changes the voice's rate from the current utterance on.
struct SpeechSynthesizerController: PlaybackController {
    let synthesizer: PublicationSpeechSynthesizer
    let engine: any TTSEngine
    let events: AsyncStream<SessionEvent>

    init(synthesizer: PublicationSpeechSynthesizer, engine: any TTSEngine) {
        self.synthesizer = synthesizer
        self.engine = engine
        events = synthesizer.events.mapped { event in
            switch event {
            case .stateChanged(let state, let locator): .stateChanged(state, locator)
            case .utterance(let utterance, let voice):
                .utterance(text: utterance.text, language: (utterance.language ?? voice.language).code,
                           voice: voice.identifier, locator: utterance.locator)
            case .range(let locator): .range(locator)
            case .warning(let issue): .warning(issue)
            case .error(let issue): .error(issue)
            }
        }
    }

    func play() async { await synthesizer.resume() }
    func stop() async { await synthesizer.stop() }
    func close() async { await synthesizer.close() }

    func status() async -> (state: PlaybackState, locator: Locator?) {
        (await synthesizer.playbackState, await synthesizer.currentLocation)
    }

    func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .play: await synthesizer.resume()
        case .pause: await synthesizer.pause()
        case .toggle: await synthesizer.pauseOrResume()
        case .seek:
            throw .unsupported(command, "speech moves by utterance; use next, previous, forward, back or go <locator>")
        case .forward, .next: await synthesizer.next()
        case .back, .previous: await synthesizer.previous()
        case .go(let data): try await CommandRefusal.go(to: data) { try await synthesizer.go(to: $0) }
        case .speed(let value): await synthesizer.setSpeed(value)
        case .volume(let value): await synthesizer.setVolume(value)
        case .pitch(let value): await synthesizer.setPitch(value)
        case .voice(let text):
            guard let voice = VoiceResolver.voice(for: text, in: engine) else {
                throw CommandRefusal(code: "command-bad-value", message: "voice \(text): \(VoiceResolver.unknownMessage(text, in: engine))")
            }
            do {
                try await synthesizer.setVoice(voice.identifier)
            } catch {
                throw CommandRefusal(code: "command-bad-value", message: "voice \(text): \(error.message)")
            }
        case .escape:
            throw .unsupported(command, "escape leaves a table, list or note of a book with media overlays")
        case .stop, .quit, .status, .bookmark, .bookmarks, .goToBookmark, .sleep, .chapter, .toc:
            break // SessionLoop does these.
        }
    }
}

/// Finds a voice from what a user typed: a voice identifier, or a BCP-47 tag one voice speaks.
enum VoiceResolver {
    static func voice(for text: String, in engine: any TTSEngine) -> TTSVoice? {
        if let voice = engine.voice(withIdentifier: text) { return voice }
        let language = Language(code: text)
        guard language.isWellFormed else { return nil }
        let choice = engine.voice(forLanguage: language)
        return choice.isFallback ? nil : choice.voice
    }

    /// "no voice or language X. Close matches: ..." for a usage error.
    static func unknownMessage(_ text: String, in engine: any TTSEngine) -> String {
        let wanted = text.lowercased()
        let identifiers = engine.availableVoices.map(\.identifier)
            .filter { EditDistance.between(wanted, $0) <= 2 || $0.hasPrefix(wanted) }
            .sorted { (EditDistance.between(wanted, $0), $0) < (EditDistance.between(wanted, $1), $1) }
            .prefix(8)
        var message = "no voice or language \"\(text)\" (see raudio voices)"
        if !identifiers.isEmpty { message += ". Close matches: \(identifiers.joined(separator: ", "))" }
        else { message += VoicesCommand.closeMatches(to: text, in: engine.availableVoices) }
        return message
    }
}
