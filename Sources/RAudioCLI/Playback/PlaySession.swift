import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// One run of `raudio play`: opens the publication, drives an `AudioNavigator`, prints its events,
/// obeys stdin commands and signals, and decides the exit status.
struct PlaySession {
    let path: String
    let options: PlaybackOptions
    let writer = EventWriter()

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

    private func runReportingEvents() async throws(StandardStreams.ReaderGone) -> ExitStatus {
        let publication: Publication
        do {
            publication = try PublicationLoading.open(path: path)
        } catch {
            try writer.report("error", code: error.code, message: error.message, fatal: true)
            return error.status
        }
        PublicationLoading.reportWarnings(of: publication)
        if publication.protection != nil {
            let failure = CommandFailure.protected(publication, path: path)
            try writer.report("error", code: failure.code, message: failure.message, fatal: true)
            return failure.status
        }
        let components = AudioEngineComponents.make(output: outputDestination(title: publication.title), realtime: options.realtime)
        let navigator: AudioNavigator
        do {
            navigator = try AudioNavigator(publication: publication, components: components, configuration: configuration)
        } catch let error as AudioNavigatorError {
            try writer.report("error", code: error.code.rawValue, message: "\(path): \(error.message)", fatal: true)
            return .badData
        } catch {
            try writer.report("error", code: "internal-error", message: "\(path): \(error)", fatal: true)
            return .internalError
        }
        let signals = SignalWatcher()
        let stdin = CommandLineReader()
        stdin.start()
        let status = try await drive(navigator, publication: publication, lines: stdin.lines, signals: signals.signals)
        await navigator.close()
        return status
    }

    private var configuration: AudioNavigatorConfiguration {
        var configuration = AudioNavigatorConfiguration()
        configuration.speed = options.speed
        configuration.volume = options.volume
        configuration.positionInterval = options.interval
        configuration.stopAfter = options.duration
        return configuration
    }

    private func outputDestination(title: String) -> OutputDestination {
        switch options.output {
        case .pulse: .pulse(server: nil, title: title)
        case .null: .null
        case .wav(let path): .wav(path: path)
        }
    }

    /// The event loop.
    private func drive(
        _ navigator: AudioNavigator, publication: Publication, lines: AsyncStream<String>, signals: AsyncStream<Int32>
    ) async throws(StandardStreams.ReaderGone) -> ExitStatus {
        try writer.write(PlayerEvent.opened(publication, duration: await navigator.totalDuration))
        if let failure = await applyStartPosition(to: navigator) {
            try writer.report("error", code: "start-position-invalid", message: failure, fatal: true)
            return .usage
        }
        let inputs = SessionInput.merged(events: navigator.events, lines: lines, signals: signals)
        var loop = SessionLoop(navigator: navigator, writer: writer, keepOpen: options.keepOpen)
        await navigator.play()
        for await input in inputs {
            if let status = try await loop.handle(input) { return status }
        }
        return loop.finalStatus
    }

    /// Moves to `--from` before playing; returns a message when it is unusable.
    private func applyStartPosition(to navigator: AudioNavigator) async -> String? {
        guard let from = options.from else { return nil }
        switch from {
        case .seconds(let seconds):
            await navigator.seek(to: seconds)
        case .percentage(let percent):
            if let total = await navigator.totalDuration {
                await navigator.seek(to: total * percent / 100)
            } else {
                return "--from \(percent)%: the publication's duration is unknown"
            }
        case .locatorJSON(let text):
            do {
                let locator = try Locator(jsonString: text, source: "--from")
                try await navigator.go(to: locator)
            } catch let error as Locator.ParseError {
                return "--from: \(error.message)"
            } catch {
                return "--from: \(error)"
            }
        }
        return nil
    }
}
