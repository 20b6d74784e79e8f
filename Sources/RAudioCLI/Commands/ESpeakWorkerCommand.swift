// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer

/// `raudio espeak-worker` (hidden): one eSpeak NG worker of `raudio speak --jobs N`, speaking the
/// requests on its stdin to its stdout (`ESpeakWorkerServer`) until stdin ends. Not for people.
struct ESpeakWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "espeak-worker",
        abstract: "One eSpeak NG worker process of raudio speak --jobs (internal).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The voice presets folder raudio loaded (default: found as raudio finds it).", valueName: "folder"))
    var presets: String?

    func run() throws {
        let loaded = presets.map { VoicePresets.load(folder: URL(fileURLWithPath: $0)) } ?? VoicePresets.load()
        let status = ESpeakWorkerServer.run(presets: loaded.presets)
        if status != 0 { throw ExitCode(status) }
    }
}
