// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
import RAudioState
import ReadiumShared

/// The options every streaming command shares (`play` and `speak`).
struct PlaybackOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where the audio goes: pulse, null, or wav:FILE.", valueName: "output"))
    var output: OutputChoice = .pulse

    @Option(help: ArgumentHelp(
        "Where to start: a Readium Locator as JSON, a percentage such as 42%, a file of the reading order (OPS/chapter_003.xhtml#id, as raudio info shows it), or `start` (raudio play also takes a time in the publication, seconds or h:mm:ss; speech has no timeline); by default where the book was left.",
        valueName: "position"))
    var from: StartPosition?

    @Option(help: "Playback speed, 0.5 to 3.0 (1 = normal); the pitch is preserved. Default: the book's last speed, else 1.")
    var speed: Double?

    @Option(help: "Volume, 0 to 2 (above 1 boosts quiet books; a limiter keeps peaks from clipping). Default: the book's last volume, else 1.")
    var volume: Double?

    @Flag(help: "Also show what the libraries log (FFmpeg's warnings and errors) on stderr.")
    var verbose = false

    @Flag(help: "Pace the wav and null outputs in real time (they otherwise run as fast as decoding allows).")
    var realtime = false

    /// Whether the audio goes out faster than real time: a WAV or null output without `--realtime`.
    var rendersFasterThanRealTime: Bool { output != .pulse && !realtime }

    @Option(help: "Stop after this many seconds of audio.")
    var duration: Double?

    @Option(help: "Seconds to wait for a lost PulseAudio server to come back before giving up (exit 69); 0 gives up at once.")
    var reconnectTimeout: Double = 10

    @Flag(help: "After the end, wait for commands instead of exiting (exit with quit or a signal).")
    var keepOpen = false

    @Flag(help: "Show the terminal player (status, progress, keys) even when stdin or stdout is not a terminal.")
    var ui = false

    @Flag(help: "Print JSON-lines events and read commands on stdin even on a terminal (the default unless stdin and stdout are both one).")
    var json = false

    @Flag(help: "Do not offer the desktop's media controls (MPRIS on the D-Bus session bus).")
    var noMpris = false

    @Option(help: ArgumentHelp(
        "Also speak the events and commands protocol over unix:PATH (JSON lines, socket mode 0600) or ws://127.0.0.1:PORT (WebSocket; port 0 picks one); repeatable.",
        valueName: "address"))
    var ipc: [IPCAddress] = []

    @Flag(help: "Let --ipc listen on an address other than loopback (needs --ipc-token).")
    var ipcAllowRemote = false

    @Option(help: ArgumentHelp("The token WebSocket clients must give (?token= in the URL, or Authorization: Bearer); visible to other users in the process list, so prefer --ipc-token-file or RAUDIO_IPC_TOKEN.", valueName: "token"))
    var ipcToken: String?

    @Option(help: ArgumentHelp("Read the --ipc-token from this file (its first line), kept off the command line.", valueName: "path"))
    var ipcTokenFile: String?

    @Option(help: ArgumentHelp("The connections each --ipc listener and --web accept at once, each counted apart; one more takes an idle one's place, or is closed as accepted.", valueName: "count"))
    var ipcMaxConnections = IPCLimits().maximumConnections

    @Option(help: ArgumentHelp(
        "The kinds of events printed on stdout: a list (state,utterance,error) or all but some (all,-range,-position); error events are always printed. Default: all.",
        valueName: "kinds"))
    var events: EventSelection?

    @Flag(help: "Also serve a read-along page on 127.0.0.1 that shows the publication and follows what is heard (its URL is printed on stderr and in a listening event).")
    var web = false

    @Option(help: ArgumentHelp("The port of --web's page (0 picks a free one).", valueName: "port"))
    var webPort = 0

    @Flag(help: "With --web, open the page in the desktop's browser (xdg-open).")
    var open = false

    /// Whether the terminal player draws the session instead of JSON lines: `--ui`, or stdin and stdout
    /// are both a terminal and `--json` was not given. (Commands piped in while stdout is a terminal,
    /// `echo pause | raudio play book`, keep the line protocol: they are not keys.)
    var usesTerminalPlayer: Bool {
        ui || (!json && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1)
    }

    @Option(help: ArgumentHelp("Pause after this long (30m, 1h30m, 90s, 45 = minutes), fading out over the last 10 s.", valueName: "time"))
    var sleep: String?

    /// `--sleep` as a timer request.
    var sleepRequest: SleepRequest? { sleep.flatMap(SleepRequest.init(parsing:)) }

    @Option(help: ArgumentHelp(
        "Where the listening state (positions, settings) is kept; default $RAUDIO_STATE_DIR, else $XDG_STATE_HOME/raudio, else ~/.local/state/raudio.",
        valueName: "directory"))
    var stateDir: String?

    @Flag(help: "Neither resume nor remember this book's position and settings.")
    var noState = false

    mutating func validate() throws {
        if ui && json {
            throw ValidationError("--ui and --json exclude each other: --ui draws the terminal player, --json prints events for programs")
        }
        if let speed, !(speed.isFinite && (0.5...3.0).contains(speed)) {
            throw ValidationError("--speed must be between 0.5 and 3.0, for example --speed 1.5")
        }
        if let volume, !(volume.isFinite && (0...2).contains(volume)) {
            throw ValidationError("--volume must be between 0 and 2 (above 1 boosts, with a limiter), for example --volume 0.8")
        }
        guard reconnectTimeout.isFinite, reconnectTimeout >= 0 else {
            throw ValidationError("--reconnect-timeout must be 0 or more seconds, for example --reconnect-timeout 30")
        }
        if let sleep {
            guard case .after? = SleepRequest(parsing: sleep) else {
                throw ValidationError("--sleep \(sleep): give a time up to 24 hours, for example --sleep 30m, --sleep 1h30m or --sleep 45 (minutes)")
            }
        }
        if let ipcTokenFile {
            guard ipcToken == nil else { throw ValidationError("give --ipc-token or --ipc-token-file, not both") }
            ipcToken = try Self.token(inFile: ipcTokenFile)
        } else if ipcToken == nil, let fromEnvironment = ProcessInfo.processInfo.environment["RAUDIO_IPC_TOKEN"], !fromEnvironment.isEmpty {
            ipcToken = fromEnvironment
        }
        guard ipcMaxConnections >= 1 else {
            throw ValidationError("--ipc-max-connections must be at least 1, for example --ipc-max-connections 64")
        }
        for address in ipc where !address.isLoopback {
            guard ipcAllowRemote, ipcToken?.isEmpty == false else {
                throw ValidationError("--ipc \(address) is not a loopback address: listen on ws://127.0.0.1:PORT, or add --ipc-allow-remote --ipc-token TOKEN")
            }
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds, for example --duration 20")
        }
    }

    /// The token in the first line of `path` (`--ipc-token-file`).
    private static func token(inFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
              let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--ipc-token-file \(path): cannot read the file (or it is over 4 KiB or not UTF-8 text)")
        }
        let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else { throw ValidationError("--ipc-token-file \(path): the file's first line is empty") }
        return token
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

/// `--from`: a locator, a time, a percentage of the publication, or a file of its reading order.
enum StartPosition: ExpressibleByArgument, Equatable {
    /// `--from start`: the beginning, whatever the listening state remembers.
    case start
    case locatorJSON(String)
    case seconds(Double)
    case percentage(Double)
    /// `--from OPS/chapter_003.xhtml#id`, `--from track.mp3#t=120`: a file of the reading order (its href as
    /// `raudio info` shows it, or its name alone when no other file has it), with a fragment.
    case href(String)

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text.lowercased() == "start" {
            self = .start
        } else if text.hasPrefix("{") {
            self = .locatorJSON(text)
        } else if text.hasSuffix("%") {
            guard let value = TimeParser.decimal(Substring(text.dropLast())), value.isFinite, (0...100).contains(value) else {
                return nil
            }
            self = .percentage(value)
        } else if let seconds = TimeParser.seconds(Substring(text)) {
            self = .seconds(seconds)
        } else if !text.isEmpty {
            self = .href(text)
        } else {
            return nil
        }
    }

    /// The locator of `--from HREF[#FRAGMENT]` in `publication`, or why there is none.
    static func locator(href text: String, in publication: Publication) -> Result<Locator, CommandFailure> {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        let readingOrder = publication.readingOrder
        let normalized = { (href: String) in (try? Href(href).path) ?? href }
        var matches = readingOrder.filter { normalized($0.hrefWithoutFragment) == normalized(path) }
        if matches.isEmpty {
            // A file's name alone, when only one file of the reading order has it.
            let named = readingOrder.filter { ($0.hrefWithoutFragment as NSString).lastPathComponent == path }
            if Set(named.map(\.hrefWithoutFragment)).count == 1 { matches = named }
        }
        guard let link = matches.first else {
            let known = readingOrder.prefix(3).map(\.hrefWithoutFragment).joined(separator: ", ")
            return .failure(.usage("--from \(text): not a file of the book's reading order (\(known)\(readingOrder.count > 3 ? ", …" : "")), "
                                   + "nor a Locator as JSON, a percentage or a time; `raudio info --human` lists its files"))
        }
        var locator = Locator(href: link.hrefWithoutFragment, type: link.type ?? "application/octet-stream", title: link.title)
        if let fragment, !fragment.isEmpty { locator.locations.fragments = [fragment] }
        return .success(locator)
    }
}
