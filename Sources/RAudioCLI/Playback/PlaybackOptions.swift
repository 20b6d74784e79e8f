import ArgumentParser
import Foundation
import RAudioEngine

/// The options every streaming command shares (`play` and `speak`).
struct PlaybackOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where the audio goes: pulse, null, or wav:FILE.", valueName: "output"))
    var output: OutputChoice = .pulse

    @Option(help: ArgumentHelp(
        "Where to start: a Readium Locator as JSON, a time in the publication (seconds or h:mm:ss), or a percentage such as 42%.",
        valueName: "position"))
    var from: StartPosition?

    @Option(help: "Playback speed, 0.5 to 3.0 (1 = normal); the pitch is preserved.")
    var speed: Double = 1

    @Option(help: "Volume, 0 to 1.")
    var volume: Double = 1

    @Flag(help: "Pace the wav and null outputs in real time (they otherwise run as fast as decoding allows).")
    var realtime = false

    @Option(help: "Seconds of media time between position events.")
    var interval: Double = 0.5

    @Option(help: "Stop after this many seconds of audio.")
    var duration: Double?

    @Option(help: "Seconds to wait for a lost PulseAudio server to come back before giving up (exit 69); 0 gives up at once.")
    var reconnectTimeout: Double = 10

    @Flag(help: "After the end, wait for commands instead of exiting (exit with quit or a signal).")
    var keepOpen = false

    func validate() throws {
        guard speed.isFinite, (0.5...3.0).contains(speed) else {
            throw ValidationError("--speed must be between 0.5 and 3.0, for example --speed 1.5")
        }
        guard volume.isFinite, (0...1).contains(volume) else {
            throw ValidationError("--volume must be between 0 and 1, for example --volume 0.8")
        }
        guard interval.isFinite, interval >= 0.05 else {
            throw ValidationError("--interval must be at least 0.05 seconds, for example --interval 0.5")
        }
        guard reconnectTimeout.isFinite, reconnectTimeout >= 0 else {
            throw ValidationError("--reconnect-timeout must be 0 or more seconds, for example --reconnect-timeout 30")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds, for example --duration 20")
        }
    }
}

/// `--output`: PulseAudio, a WAV file, or nowhere.
enum OutputChoice: ExpressibleByArgument, Equatable {
    case pulse
    case null
    case wav(path: String)

    init?(argument: String) {
        switch argument.lowercased() {
        case "pulse", "pulseaudio": self = .pulse
        case "null", "none": self = .null
        default:
            guard argument.lowercased().hasPrefix("wav:"), argument.count > 4 else { return nil }
            self = .wav(path: String(argument.dropFirst(4)))
        }
    }

    static var allValueStrings: [String] { ["pulse", "null", "wav:FILE"] }

    /// The engine's destination; a PulseAudio stream is named `title`.
    func destination(title: String) -> OutputDestination {
        switch self {
        case .pulse: .pulse(server: nil, title: title)
        case .null: .null
        case .wav(let path): .wav(path: path)
        }
    }
}

/// `--from`: a locator, a time, or a percentage of the publication.
enum StartPosition: ExpressibleByArgument, Equatable {
    case locatorJSON(String)
    case seconds(Double)
    case percentage(Double)

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("{") {
            self = .locatorJSON(text)
        } else if text.hasSuffix("%") {
            guard let value = TimeParser.decimal(Substring(text.dropLast())), value.isFinite, (0...100).contains(value) else {
                return nil
            }
            self = .percentage(value)
        } else if let seconds = TimeParser.seconds(Substring(text)) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }
}
