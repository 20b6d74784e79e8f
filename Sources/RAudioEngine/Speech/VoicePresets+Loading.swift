// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension VoicePresets {
    /// What `load` found: the presets, the folder they came from, and warnings for stderr.
    public struct Loaded: Sendable {
        public var presets: VoicePresets
        /// The folder read, or nil when the built-in presets are used.
        public var folder: URL?
        /// Broken files (named), a `$RAUDIO_VOICES` that does not exist, or no folder found.
        public var warnings: [String]
    }

    /// The folders searched for presets, in order; the first that exists is used
    /// (`InstalledDataFolder.searchPath(for:variable:environment:executable:)` for `voices`):
    ///
    /// 1. `$RAUDIO_VOICES`;
    /// 2. `<folder of the raudio binary>/../share/raudio/voices`: an installed raudio, whatever its prefix
    ///    (`make install PREFIX=...` puts the binary in `PREFIX/bin` and the presets in `PREFIX/share/raudio`);
    /// 3. `voices/` of the source tree, found by walking up from the binary to a `Package.swift`
    ///    (a `swift build` binary);
    /// 4. `raudio/voices` in each folder of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`): the
    ///    presets of an installed raudio for a binary copied elsewhere;
    /// 5. `voices/` of the source tree found from this source file's location (tests).
    public static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = currentExecutable) -> [URL] {
        InstalledDataFolder.searchPath(for: "voices", variable: "RAUDIO_VOICES", environment: environment, executable: executable)
    }

    /// Loads the presets from the first folder of `searchPath` that exists.
    ///
    /// Each `*.json` file of the folder is one preset; a broken file is skipped with a warning naming
    /// it; `default.json` (`"language": "*"`) gives the default preset. With no folder at all, the
    /// `builtIn` presets are used, with a warning.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = currentExecutable) -> Loaded {
        var warnings: [String] = []
        if let variable = environment["RAUDIO_VOICES"], !variable.isEmpty, !isFolder(URL(fileURLWithPath: variable)) {
            warnings.append("RAUDIO_VOICES=\(variable) is not a folder; looking for voice presets elsewhere")
        }
        guard let folder = searchPath(environment: environment, executable: executable).first(where: isFolder) else {
            warnings.append("no voice presets folder found (set RAUDIO_VOICES); using built-in presets")
            return Loaded(presets: builtIn, folder: nil, warnings: warnings)
        }
        var loaded = load(folder: folder)
        loaded.warnings.insert(contentsOf: warnings, at: 0)
        return loaded
    }

    /// Loads the presets of one folder; see `load(environment:executable:)`.
    public static func load(folder: URL) -> Loaded {
        var warnings: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var presets: [VoicePreset] = []
        var defaultPreset: VoicePreset?
        for name in names {
            let file = folder.appendingPathComponent(name)
            do throws(VoicePresetError) {
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw VoicePresetError(file: file.path, message: "cannot be read")
                }
                let preset = try VoicePreset.parse(data, file: file.path)
                if preset.language == nil {
                    if defaultPreset != nil { warnings.append("\(file.path): a second default preset (\"language\": \"*\") is ignored") }
                    defaultPreset = defaultPreset ?? preset
                } else {
                    presets.append(preset)
                }
            } catch {
                warnings.append("\(error.description); the file is ignored")
            }
        }
        if defaultPreset == nil {
            warnings.append("\(folder.path): no default preset (a file with \"language\": \"*\"); using the built-in default")
        }
        return Loaded(presets: VoicePresets(presets: presets, defaultPreset: defaultPreset ?? builtIn.defaultPreset), folder: folder, warnings: warnings)
    }

    /// The running executable (`/proc/self/exe`, else `argv[0]`), symlinks resolved.
    public static var currentExecutable: URL? { InstalledDataFolder.currentExecutable }

    private static func isFolder(_ url: URL) -> Bool { InstalledDataFolder.isFolder(url) }
}
