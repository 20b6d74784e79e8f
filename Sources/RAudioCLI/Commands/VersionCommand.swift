// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import RAudioEngine
import RAudioPlayer

/// `raudio version`: the raudio version, the C libraries it is linked against, and where its data comes from.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print raudio's version, the versions of the C libraries it uses and its voice presets folder.",
        discussion: """
            The first line is "raudio VERSION"; then one line per C library, "NAME VERSION"; then "piper-worker \
            FILE" and "piper-environment FOLDER" (the neural voices' worker script and Python environment, or \
            "not found"); the line before last is "read-along-page FOLDER" (the web/ folder --web serves, or "read-along-page not \
            found"); the last is "voice-presets FOLDER" (or "voice-presets built-in" when no voices/ folder \
            was found).
            """
    )

    func run() {
        print("raudio \(RAudioVersion.current)")
        for library in LinkedLibraries.versions() {
            print("\(library.name) \(library.version)")
        }
        let piperWorker = InstalledDataFolder.find("piper", variable: "RAUDIO_PIPER_WORKER").map { $0.appendingPathComponent("worker.py") }
        print("piper-worker \(piperWorker?.path ?? "not found")")
        print("piper-environment \(PiperRuntime.environmentFolder()?.path ?? "not found")")
        print("read-along-page \(InstalledDataFolder.find("web", variable: "RAUDIO_WEB")?.path ?? "not found")")
        print("voice-presets \(VoicePresets.load().folder?.path ?? "built-in")")
    }
}
