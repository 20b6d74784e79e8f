// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Who follows a streaming session besides a program reading stdout: the terminal player (which then
/// replaces the JSON lines and stdin), the desktop's media controls (MPRIS), a progress bar on stderr.
struct SessionFrontEnds {
    /// Draws the session and takes keys, instead of JSON lines on stdout and commands on stdin.
    var terminal: TerminalPlayer?
    /// Follow the events (MPRIS, the progress bar).
    var observers: [any EventObserver] = []
    /// Commands from elsewhere than stdin (the desktop), in the words stdin takes.
    var remoteCommands: [AsyncStream<String>] = []

    /// The command sources the session loop reads besides stdin.
    var commandSources: [AsyncStream<String>] {
        (terminal.map { [$0.commands] } ?? []) + remoteCommands
    }

    /// The front ends `options` ask for: the terminal player when stdout is a terminal (or `--ui`)
    /// unless `--json`; a progress bar when rendering to a WAV file with stderr on a terminal; the
    /// desktop's media controls (MPRIS, with `publication`'s cover) unless `--no-mpris` or the audio is
    /// rendered faster than real time (a WAV or null output without `--realtime` is no player to control).
    static func make(options: PlaybackOptions, mode: PlayerStatus.Mode, chapters: ChapterMap?, publication: Publication? = nil) -> SessionFrontEnds {
        var frontEnds = SessionFrontEnds()
        var status = PlayerStatus(mode: mode)
        status.chapters = chapters?.entries.map { PlayerStatus.Chapter(title: $0.title, start: $0.start) } ?? []
        if options.usesTerminalPlayer {
            frontEnds.terminal = TerminalPlayer(status: status)
        } else if case .wav = options.output, isatty(STDERR_FILENO) == 1 {
            frontEnds.observers.append(RenderProgress(status: status))
        }
        if !options.noMpris && (options.output == .pulse || options.realtime) {
            // Connects on its own thread: playback starts without waiting for D-Bus, and without a
            // session bus nothing is offered and nothing is said.
            let mpris = MPRISServer(status: status, cover: publication.flatMap(MPRISCover.init(publication:)))
            mpris.start()
            frontEnds.observers.append(mpris)
            frontEnds.remoteCommands.append(mpris.commands)
        }
        return frontEnds
    }
}
