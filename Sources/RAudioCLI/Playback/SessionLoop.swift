import Foundation
import ReadiumNavigator
import ReadiumShared

/// Reacts to one input at a time: prints navigator events, runs commands, stops on signals.
///
/// Returns an exit status from `handle` when the session must end.
struct SessionLoop {
    let navigator: AudioNavigator
    let writer: EventWriter
    let keepOpen: Bool
    private(set) var finalStatus: ExitStatus = .success
    private var lastLocator: Locator?
    private var lastState: PlaybackState?
    /// Set once a stop was asked for (quit, signal): the next terminal state ends the session.
    private var isQuitting = false
    private var fatalStatus: ExitStatus?

    init(navigator: AudioNavigator, writer: EventWriter, keepOpen: Bool) {
        self.navigator = navigator
        self.writer = writer
        self.keepOpen = keepOpen
    }

    mutating func handle(_ input: SessionInput) async throws(StandardStreams.ReaderGone) -> ExitStatus? {
        switch input {
        case .navigator(let event):
            return try handle(event)
        case .navigatorFinished:
            return fatalStatus ?? .success
        case .commandLine(let line):
            return try await handle(line: line)
        case .signal:
            return try await quit()
        case .stopTimeout:
            // The navigator did not confirm the stop: say where we were and leave.
            try writer.write(PlayerEvent.state(.stopped, locator: lastLocator))
            return fatalStatus ?? .success
        }
    }

    private mutating func handle(_ event: AudioNavigatorEvent) throws(StandardStreams.ReaderGone) -> ExitStatus? {
        switch event {
        case .stateChanged(let state, let locator):
            lastLocator = locator
            lastState = state
            try writer.write(PlayerEvent.state(state, locator: locator))
            switch state.name {
            case "failed":
                return fatalStatus ?? .badData
            case "ended", "stopped":
                if isQuitting || !keepOpen { return fatalStatus ?? .success }
            default:
                break
            }
        case .position(let locator):
            lastLocator = locator
            try writer.write(PlayerEvent.position(locator))
        case .trackChanged(let index, let link, let locator):
            lastLocator = locator
            try writer.write(PlayerEvent.track(index: index, link: link, locator: locator))
        case .warning(let issue):
            try writer.report("warning", code: issue.code, message: issue.message, fatal: false, href: issue.href, locator: issue.locator)
        case .error(let issue):
            if issue.fatal { fatalStatus = ExitStatus(fatalIssueCode: issue.code) }
            try writer.report("error", code: issue.code, message: issue.message, fatal: issue.fatal, href: issue.href, locator: issue.locator ?? lastLocator)
        }
        return nil
    }

    private mutating func handle(line: String) async throws(StandardStreams.ReaderGone) -> ExitStatus? {
        let request: PlayerCommandRequest
        switch PlayerCommandParser.parse(line: line) {
        case .success(nil):
            return nil
        case .success(let parsed?):
            request = parsed
        case .failure(let error):
            try writer.report("error", code: error.code.rawValue, message: error.message, fatal: false, id: error.id)
            return nil
        }
        if case .go(let data) = request.command {
            // Refuse an unusable locator before acknowledging the command.
            do {
                let locator = try Locator(jsonString: String(decoding: data, as: UTF8.self), source: "go")
                try await navigator.go(to: locator)
            } catch {
                try writer.report("error", code: "command-bad-value", message: "go: \(error)", fatal: false, id: request.id)
                return nil
            }
            try writer.write(PlayerEvent.ack(request.command, id: request.id))
            return nil
        }
        try writer.write(PlayerEvent.ack(request.command, id: request.id))
        return try await perform(request.command)
    }

    private mutating func perform(_ command: PlayerCommand) async throws(StandardStreams.ReaderGone) -> ExitStatus? {
        switch command {
        case .play: await navigator.play()
        case .pause: await navigator.pause()
        case .toggle: await navigator.playPause()
        case .stop:
            if keepOpen { await navigator.stop() } else { return try await quit() }
        case .quit: return try await quit()
        case .seek(.absolute(let seconds)): await navigator.seek(to: seconds)
        case .seek(.relative(let seconds)): await navigator.seek(by: seconds)
        case .forward: await navigator.skipForward()
        case .back: await navigator.skipBackward()
        case .next: await navigator.goForward()
        case .previous: await navigator.goBackward()
        case .go: break
        case .speed(let value): await navigator.setSpeed(value)
        case .volume(let value): await navigator.setVolume(value)
        case .status:
            let state = await navigator.state
            let locator = await navigator.currentLocation
            try writer.write(PlayerEvent.state(state, locator: locator))
        }
        return nil
    }

    /// Stops the output and ends the session with a final `state` event.
    private mutating func quit() async throws(StandardStreams.ReaderGone) -> ExitStatus? {
        isQuitting = true
        if let lastState, ["stopped", "ended", "failed"].contains(lastState.name) {
            try writer.write(PlayerEvent.state(lastState, locator: await navigator.currentLocation))
            return fatalStatus ?? .success
        }
        await navigator.stop()
        let state = await navigator.state
        if ["stopped", "ended", "failed", "idle"].contains(state.name) {
            // The stop is done; its state event may still be in flight: print the final one ourselves.
            try writer.write(PlayerEvent.state(.stopped, locator: await navigator.currentLocation))
            return fatalStatus ?? .success
        }
        return nil
    }
}
