// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer

/// `raudio play PATH`: plays an audiobook, reporting JSON-lines events on stdout and taking commands on stdin.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audiobook; events as JSON lines on stdout, commands on stdin.",
        discussion: """
            Commands (one per line, words or JSON): play, pause, toggle, stop, quit, seek 1:02:03, seek +30, \
            forward, back, next, previous, go <locator JSON>, speed 1.5, volume 0.8, status, bookmark [note], bookmarks, \
            go bookmark:ID, sleep 30m|+5m|chapter|off, chapter next|previous|N, toc; escape in a narrated EPUB. \
            An EPUB with media overlays plays its narration, with text-to-speech where there is no audio. \
            See docs/events.md for the protocol and the exit codes.
            """
    )

    @Argument(help: "The audiobook (.audiobook, manifest.json, a folder or ZIP of audio files, one audio file) or an EPUB with media overlays.")
    var path: String

    @OptionGroup var options: PlaybackOptions

    @OptionGroup(title: "Audio") var audio: AudioPlaybackOptions

    @OptionGroup(title: "Narrated EPUBs (media overlays)") var narration: NarrationOptions

    func run() async throws {
        let status = await PlaySession(path: path, options: options, audio: audio, narration: narration).run()
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
