// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// Who follows a streaming session besides a program reading stdout: the terminal player (which then
/// replaces the JSON lines and stdin), the desktop's media controls (MPRIS), a progress bar on stderr.
struct SessionFrontEnds {
    /// Draws the session and takes keys, instead of JSON lines on stdout and commands on stdin.
    var terminal: TerminalPlayer?
    /// Follow the events (MPRIS, the progress bar).
    var observers: [any EventObserver] = []
    /// Commands from elsewhere than stdin (the desktop).
    var remoteCommands: [AsyncStream<PlayerCommand>] = []
    /// Commands whose answers go back to their sender alone (the IPC server's clients), parsed by the server.
    var addressedCommands: [AsyncStream<IncomingCommand>] = []
    /// `--ipc`: where the IPC server listens (its `listening` events), or why it could not start.
    var ipcAddresses: [IPCAddress] = []
    var ipcFailure: IPCError?
    /// `--web`: the address that serves the read-along page, and the page's URL.
    var pageAddress: IPCAddress?
    var pageURL: String?

    /// The commands the session loop reads: stdin's lines (unless the terminal player takes the keys),
    /// the keys, the desktop's, the IPC clients'; each parsed here, where it comes in.
    func commandSources(stdin: CommandLineReader) -> [AsyncStream<IncomingCommand>] {
        let typed = (terminal.map { [$0.commands] } ?? []) + remoteCommands
        return [Self.relay(stdin.lines) { IncomingCommand(parsing: $0, handled: { stdin.lineHandled() }) }]
            + typed.map { Self.relay($0) { IncomingCommand($0) } }
            + addressedCommands
    }

    /// `source`'s elements made into commands by `transform` (nil: dropped).
    private static func relay<Element: Sendable>(
        _ source: AsyncStream<Element>, _ transform: @escaping @Sendable (Element) -> IncomingCommand?
    ) -> AsyncStream<IncomingCommand> {
        let (stream, continuation) = AsyncStream.makeStream(of: IncomingCommand.self)
        let task = Task {
            for await element in source {
                if let command = transform(element) { continuation.yield(command) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The front ends `options` ask for: the terminal player when stdout is a terminal (or `--ui`)
    /// unless `--json`; a progress bar when rendering to a WAV file with stderr on a terminal; the
    /// desktop's media controls (MPRIS, with `publication`'s cover) unless `--no-mpris` or the audio is
    /// rendered faster than real time (a WAV or null output without `--realtime` is no player to control).
    /// `voices`: speech, the voices the terminal's `v` cycles through.
    static func make(options: PlaybackOptions, mode: PlayerStatus.Mode, chapters: ChapterMap?, publication: Publication? = nil,
                     voices: [String] = []) -> SessionFrontEnds {
        var frontEnds = SessionFrontEnds()
        var status = PlayerStatus(mode: mode)
        status.chapters = chapters?.entries.map { PlayerStatus.Chapter(title: $0.title, start: $0.start) } ?? []
        if options.usesTerminalPlayer {
            frontEnds.terminal = TerminalPlayer(status: status, voices: voices)
        } else if case .wav(let path) = options.output, isatty(STDERR_FILENO) == 1 {
            frontEnds.observers.append(RenderProgress(status: status, path: path))
        }
        if !options.noMpris && !options.rendersFasterThanRealTime {
            // Connects on its own thread: playback starts without waiting for D-Bus, and without a
            // session bus nothing is offered and nothing is said.
            let mpris = MPRISServer(status: status, cover: publication.flatMap(MPRISCover.init(publication:)))
            mpris.start()
            frontEnds.observers.append(mpris)
            frontEnds.remoteCommands.append(mpris.commands)
        }
        if !options.ipc.isEmpty || options.web {
            do {
                let page = try options.web ? (port: options.webPort, site: Self.readAlongSite(publication, stateDirectory: options.stateDir)) : nil
                let server = try IPCServer(addresses: options.ipc, token: options.ipcToken, page: page,
                                           limits: IPCLimits.from(maximumConnections: options.ipcMaxConnections))
                frontEnds.observers.append(server)
                frontEnds.addressedCommands.append(server.commands)
                frontEnds.ipcAddresses = server.boundAddresses
                for address in server.boundAddresses { StandardStreams.printError("raudio: listening on \(address)") }
                if let url = server.pageURL {
                    frontEnds.pageURL = url
                    frontEnds.pageAddress = server.boundAddresses.last
                    StandardStreams.printError("raudio: read along at \(url)")
                    if options.open { DesktopBrowser.open(url) }
                }
            } catch {
                frontEnds.ipcFailure = error
            }
        }
        return frontEnds
    }

    private static func readAlongSite(_ publication: Publication?, stateDirectory: String?) throws(IPCError) -> ReadAlongSite {
        let copyRight = ReadAlongCopyRight.make(for: publication, stateDirectory: stateDirectory)
        guard let site = ReadAlongSite(publication: publication, copyRight: copyRight) else {
            throw IPCError(message: "--web: the read-along page's files (web/) were not found beside the raudio binary or in RAUDIO_WEB")
        }
        return site
    }
}
