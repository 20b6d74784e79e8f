import ReadiumNavigator
import ReadiumShared

/// `raudio play`'s controller: an `AudioNavigator` behind `PlaybackController`.
struct AudioNavigatorController: PlaybackController {
    let navigator: AudioNavigator
    let events: AsyncStream<SessionEvent>

    init(navigator: AudioNavigator) {
        self.navigator = navigator
        events = navigator.events.mapped { event in
            switch event {
            case .stateChanged(let state, let locator): .stateChanged(state, locator)
            case .position(let locator): .position(locator)
            case .trackChanged(let index, let link, let locator): .track(index: index, link: link, locator: locator)
            case .warning(let issue): .warning(issue)
            case .error(let issue): .error(issue)
            }
        }
    }

    func play() async { await navigator.play() }
    func stop() async { await navigator.stop() }
    func close() async { await navigator.close() }

    func status() async -> (state: PlaybackState, locator: Locator?) {
        (await navigator.state, await navigator.currentLocation)
    }

    func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .play: await navigator.play()
        case .pause: await navigator.pause()
        case .toggle: await navigator.playPause()
        case .seek(.absolute(let seconds)): await navigator.seek(to: seconds)
        case .seek(.relative(let seconds)): await navigator.seek(by: seconds)
        case .forward: await navigator.skipForward()
        case .back: await navigator.skipBackward()
        case .next: await navigator.goForward()
        case .previous: await navigator.goBackward()
        case .go(let data):
            do {
                let locator = try Locator(jsonString: String(decoding: data, as: UTF8.self), source: "go")
                try await navigator.go(to: locator)
            } catch {
                throw CommandRefusal(code: "command-bad-value", message: "go: \(error)")
            }
        case .speed(let value): await navigator.setSpeed(value)
        case .volume(let value): await navigator.setVolume(value)
        case .voice, .pitch:
            throw .unsupported(command, "an audiobook has no voice to change; voice and pitch are commands of raudio speak")
        case .escape:
            throw .unsupported(command, "escape leaves a table, list or note of a book with media overlays")
        case .stop, .quit, .status:
            break
        }
    }
}
