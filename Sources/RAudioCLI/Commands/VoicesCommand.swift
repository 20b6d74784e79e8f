// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared

/// `raudio voices`: the Piper voices found, then the eSpeak NG voices, as JSON lines or a table,
/// optionally for one language.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the text-to-speech voices as JSON lines or, with --human, a table.",
        discussion: """
            Each line is an object with "identifier" (what --voice takes), "name", "language" (BCP-47), \
            "gender" ("male", "female" or null) and "engine" ("piper" or "espeak"); Piper voices add "quality". \
            Neural Piper voices come first: those of --voice-path, of $XDG_DATA_HOME/raudio/voices and of the \
            Piper environment that make deps installs. --language keeps the voices of that base language: \
            fr-CA lists every French voice.
            """
    )

    @Option(help: "Only voices speaking this language (a BCP-47 tag such as fr, en-US, zh).")
    var language: String?

    @Flag(help: "Print a readable table instead of JSON lines.")
    var human = false

    @Option(name: .customLong("voice-path"), help: ArgumentHelp("A folder of Piper voices (NAME.onnx with NAME.onnx.json); repeatable.", valueName: "folder"))
    var voicePaths: [String] = []

    func run() throws {
        let loaded = VoicePresets.load()
        for warning in loaded.warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        let engine: ESpeakEngine
        do {
            engine = try ESpeakEngine(presets: loaded.presets)
        } catch {
            throw CommandFailure(error, message: error.message)
        }
        let catalog = PiperVoiceCatalog(voicePaths: voicePaths.map { URL(fileURLWithPath: $0) })
        for problem in catalog.problems { StandardStreams.printError("raudio: warning: \(problem.message)") }
        let qualities = Dictionary(catalog.voices.map { ($0.identifier, $0.quality) }, uniquingKeysWith: { first, _ in first })
        var voices = catalog.voices.map(\.ttsVoice) + engine.availableVoices
        if let language {
            voices = try Self.voices(voices, speaking: language)
        }
        do {
            if human {
                try StandardStreams.printLine(Self.table(voices))
            } else {
                for voice in voices { try StandardStreams.printLine(Self.json(voice, quality: qualities[voice.identifier]).serialized()) }
            }
        } catch {
            // The reader of stdout went away: nothing more to say.
        }
    }

    /// The voices whose languages share `tag`'s base language; a usage error naming close matches when
    /// the tag is malformed or no voice speaks it.
    static func voices(_ voices: [TTSVoice], speaking tag: String) throws(CommandFailure) -> [TTSVoice] {
        let language = Language(code: tag)
        guard language.isWellFormed else {
            throw CommandFailure(.usage, code: "invalid-language", message: "--language \(tag): not a BCP-47 language tag (for example fr, en-US, zh)\(closeMatches(to: tag, in: voices))")
        }
        let matching = voices.filter { $0.speaks(baseLanguageOf: language) }
        guard !matching.isEmpty else {
            throw CommandFailure(.usage, code: "unknown-language", message: "--language \(tag): no voice speaks this language\(closeMatches(to: tag, in: voices))")
        }
        return matching
    }

    /// ". Close matches: ..." listing voice languages near `tag`, or "" when none is near.
    static func closeMatches(to tag: String, in voices: [TTSVoice]) -> String {
        VoiceResolver.closeMatches(to: tag, in: voices)
    }

    /// One voice's line; `quality` is a Piper voice's (`medium`), nil for eSpeak NG.
    static func json(_ voice: TTSVoice, quality: String? = nil) -> JSONValue {
        var fields = JSONObject([
            ("identifier", .string(voice.identifier)),
            ("name", .string(voice.name)),
            ("language", .string(voice.language.code)),
            ("gender", voice.gender == .unspecified ? .null : .string(voice.gender.rawValue)),
            ("engine", .string(quality == nil ? "espeak" : "piper")),
        ])
        if let quality { fields["quality"] = .string(quality) }
        return .object(fields)
    }

    static func table(_ voices: [TTSVoice]) -> String {
        let rows = [["IDENTIFIER", "LANGUAGE", "GENDER", "NAME"]] + voices.map {
            [$0.identifier, $0.language.code, $0.gender == .unspecified ? "-" : $0.gender.rawValue, $0.name]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined() + row[3]
        }.joined(separator: "\n")
    }
}
