// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// Help texts say what each subcommand does (issue 36, item 5): `speak --help` offered options only `play`
/// uses, and `play --help`'s list of commands lacked half of them.
@Suite struct HelpTextTests {
    /// The `--options` a help text offers.
    static func options(in help: String) -> Set<String> {
        Set(help.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "|" }).compactMap { word -> String? in
            let name = word.prefix { $0.isLetter || $0 == "-" }
            return name.hasPrefix("--") && name.count > 2 ? String(name) : nil
        })
    }

    @Test func speechOffersNoneOfPlaysAudioOptions() throws {
        let audioOnly = Self.options(in: AudioPlaybackOptions.helpMessage()).subtracting(["--help"])
        #expect(audioOnly.isSuperset(of: ["--interval", "--normalize", "--cache-size", "--auto-rewind", "--no-auto-rewind"]))
        let play = Self.options(in: RAudioCommand.helpMessage(for: PlayCommand.self))
        let speak = Self.options(in: RAudioCommand.helpMessage(for: SpeakCommand.self))
        #expect(audioOnly.isSubset(of: play))
        #expect(audioOnly.isDisjoint(with: speak), "speak offers \(audioOnly.intersection(speak).sorted())")
    }

    /// `speak --help` does not promise a time for `--from` (speech has no timeline).
    @Test func speaksFromDoesNotOfferATime() {
        let help = RAudioCommand.helpMessage(for: SpeakCommand.self, columns: 1000).split(separator: "\n").map(String.init)
        let from = help.first { $0.contains("--from") } ?? ""
        #expect(from.contains("raudio play also takes a time"), "\(from)")
    }

    /// `play --help` lists every command of the protocol but speech's own (`voice`, `pitch`), `speak --help`
    /// every one but `seek` (which it says it refuses) and `escape` (narrated books only).
    @Test func bothHelpsListEveryCommandTheyTake() {
        let play = RAudioCommand.helpMessage(for: PlayCommand.self, columns: 1000)
        let speak = RAudioCommand.helpMessage(for: SpeakCommand.self, columns: 1000)
        for name in PlayerCommand.Name.allCases.map(\.rawValue) {
            if !["voice", "pitch"].contains(name) { #expect(play.contains(name), "play --help does not list \(name)") }
            if name != "escape" { #expect(speak.contains(name), "speak --help does not list \(name)") }
        }
    }
}
