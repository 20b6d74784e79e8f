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

    /// What each subcommand uses, option by option: its help must offer exactly these (issue 36, item 5). An
    /// option added to a shared group shows up here for every subcommand that gets it, to be removed where it
    /// would do nothing. `--version` and `--help` come with every subcommand.
    static let optionsUsed: [String: Set<String>] = {
        let session: Set<String> = [
            "--output", "--from", "--speed", "--volume", "--verbose", "--realtime", "--duration", "--reconnect-timeout", "--keep-open",
            "--ui", "--json", "--no-mpris", "--ipc", "--ipc-allow-remote", "--ipc-token", "--ipc-token-file", "--ipc-max-connections",
            "--events", "--web", "--web-port", "--open", "--sleep", "--state-dir", "--no-state",
        ]
        return [
            "play": session.union(["--interval", "--cache-size", "--normalize", "--no-auto-rewind", "--auto-rewind", "--tts", "--no-tts", "--skip", "--last",
                                   "--passphrase-file", "--text"]),
            "speak": session.union(["--engine", "--voice-path", "--voice", "--pitch", "--language", "--jobs", "--skip", "--passphrase-file"]),
            "render": ["--to", "--engine", "--voice-path", "--voice", "--pitch", "--speed", "--language", "--jobs", "--skip", "--granularity", "--audio",
                       "--cache", "--cache-size", "--shard", "--merge"],
            "align": ["--to", "--link-audio", "--alignment", "--granularity", "--method", "--language", "--skip", "--min-confidence", "--jobs"],
            "text": ["--from", "--unit", "--skip", "--passphrase-file"],
            "info": ["--human", "--cover", "--verbose", "--passphrase-file"],
            "lcp": [],
            "catalog": ["--search", "--page", "--facet", "--credentials", "--json"],
            "voices": ["--language", "--human", "--voice-path"],
            "history": ["--state-dir", "--human"],
            "bookmarks": ["--state-dir", "--delete", "--human"],
            "version": [],
        ]
    }()

    /// Every subcommand raudio lists, walked: its help offers the options it uses and no other, each with
    /// words that say what it does.
    @Test func everySubcommandOffersTheOptionsItUsesAndNoOther() {
        let subcommands = RAudioCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }
        #expect(Set(subcommands.map { $0._commandName }) == Set(Self.optionsUsed.keys))
        for subcommand in subcommands {
            let name = subcommand._commandName
            let lines = RAudioCommand.helpMessage(for: subcommand, columns: 1000).split(separator: "\n").map(String.init)
            // The lines that define an option (`  --speed <speed>`, `  -h, --help`), and the words that follow.
            var offered: [String: String] = [:]
            for (index, line) in lines.enumerated() where line.hasPrefix("  -") {
                var words = line.split(separator: " ").map(String.init)
                // `-h,` before `--help`; then the option, its `<value>`, and what it does.
                while let first = words.first, !first.hasPrefix("--") { words.removeFirst() }
                guard let option = words.first else { continue }
                let description = words.dropFirst().drop { $0.hasPrefix("<") }
                let following = lines.dropFirst(index + 1).prefix { $0.hasPrefix("      ") }.joined(separator: " ")
                offered[option] = (description.joined(separator: " ") + " " + following).trimmingCharacters(in: .whitespaces)
            }
            let used = Self.optionsUsed[name] ?? []
            let shown = Set(offered.keys).subtracting(["--version", "--help"])
            #expect(shown == used, "raudio \(name) --help offers \(shown.subtracting(used).sorted()) more, \(used.subtracting(shown).sorted()) fewer")
            for (option, words) in offered where words.split(separator: " ").count < 3 {
                Issue.record("raudio \(name) --help: \(option) says nothing of what it does (\(words))")
            }
            // A default said twice: in the words, and by the argument parser after them.
            for (option, words) in offered where words.contains("(default: ") && words.components(separatedBy: "(default").count > 2 {
                Issue.record("raudio \(name) --help: \(option) gives its default twice (\(words))")
            }
        }
    }
}
