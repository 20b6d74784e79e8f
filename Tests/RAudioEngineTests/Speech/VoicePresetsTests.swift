// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumShared
import Testing

/// Loading the `voices/` presets from the search path.
struct VoicePresetsTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-voices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func shippedPresetsLoadWithoutWarningsAndCoverTheRequiredLanguages() throws {
        let loaded = VoicePresets.load(environment: [:])
        #expect(loaded.folder?.lastPathComponent == "voices")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        for tag in ["en", "en-US", "en-GB", "fr", "de", "es", "it", "pt", "ja", "ar", "he", "zh"] {
            #expect(loaded.presets.preset(forLanguage: Language(code: tag)) != nil, "no preset for \(tag)")
        }
        #expect(loaded.presets.defaultPreset.rate == 160)
    }

    @Test func environmentVariableComesFirstAndBrokenFilesAreNamedInWarnings() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"version": 1, "language": "*", "voice": "en-gb", "rate": 150}"#.write(to: folder.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        try #"{"language": "fr", "voice": "fr-be", "pitch": 40}"#.write(to: folder.appendingPathComponent("fr.json"), atomically: true, encoding: .utf8)
        try #"{"language": "de", "voice": "de",}"#.write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try #"{"language": "it", "voice": "it", "rate": 9000}"#.write(to: folder.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
        let loaded = VoicePresets.load(environment: ["RAUDIO_VOICES": folder.path])
        #expect(loaded.folder?.standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(loaded.presets.defaultPreset.voice == "en-gb")
        #expect(loaded.presets.defaultPreset.rate == 150)
        #expect(loaded.presets.preset(forLanguage: Language(code: "FR"))?.pitch == 40)
        #expect(loaded.presets.preset(forLanguage: Language(code: "de")) == nil)
        #expect(loaded.warnings.count == 2)
        #expect(loaded.warnings.contains { $0.contains("broken.json") && $0.contains("trailing comma") })
        #expect(loaded.warnings.contains { $0.contains("fast.json") && $0.contains("9000") })
    }

    @Test func missingEnvironmentFolderWarnsAndFallsThroughTheSearchPath() {
        let loaded = VoicePresets.load(environment: ["RAUDIO_VOICES": "/nonexistent/voices"])
        #expect(loaded.warnings.first?.contains("/nonexistent/voices") == true)
        #expect(loaded.folder?.lastPathComponent == "voices")
    }

    @Test func noFolderAnywhereUsesBuiltInPresetsWithAWarning() throws {
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let executable = URL(fileURLWithPath: "/nonexistent/bin/raudio")
        let folders = VoicePresets.searchPath(environment: [:], executable: executable)
        #expect(folders.first?.path == "/nonexistent/share/raudio/voices")
        let loaded = VoicePresets.load(folder: empty)
        #expect(loaded.warnings.contains { $0.contains("no default preset") })
        #expect(loaded.presets.defaultPreset == VoicePresets.builtIn.defaultPreset)
    }

    /// An installation: `PREFIX/bin/raudio` and `PREFIX/share/raudio/voices`, in a temporary folder.
    private func installedPrefix() throws -> (prefix: URL, executable: URL, voices: URL) {
        let prefix = try temporaryFolder()
        let voices = prefix.appendingPathComponent("share/raudio/voices")
        try FileManager.default.createDirectory(at: voices, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let executable = prefix.appendingPathComponent("bin/raudio")
        #expect(FileManager.default.createFile(atPath: executable.path, contents: Data()))
        try #"{"language": "*", "voice": "en-gb", "rate": 170}"#.write(to: voices.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        return (prefix, executable, voices)
    }

    @Test func installedBinaryFindsThePresetsOfItsPrefix() throws {
        let installed = try installedPrefix()
        defer { try? FileManager.default.removeItem(at: installed.prefix) }
        let loaded = VoicePresets.load(environment: [:], executable: installed.executable)
        #expect(loaded.folder?.standardizedFileURL.path == installed.voices.standardizedFileURL.path)
        #expect(loaded.presets.defaultPreset.rate == 170)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test func binaryOutsideItsPrefixFindsThePresetsThroughXDGDataDirectories() throws {
        let installed = try installedPrefix()
        defer { try? FileManager.default.removeItem(at: installed.prefix) }
        let share = installed.prefix.appendingPathComponent("share").path
        let executable = URL(fileURLWithPath: "/nonexistent/bin/raudio")
        let folders = VoicePresets.searchPath(environment: ["XDG_DATA_DIRS": "relative/ignored:\(share)"], executable: executable)
        #expect(folders.prefix(2).map(\.path) == ["/nonexistent/share/raudio/voices", installed.voices.standardizedFileURL.path])
        let loaded = VoicePresets.load(environment: ["XDG_DATA_DIRS": share], executable: executable)
        #expect(loaded.folder?.standardizedFileURL.path == installed.voices.standardizedFileURL.path)
        #expect(loaded.presets.defaultPreset.rate == 170)
        let defaults = VoicePresets.searchPath(environment: [:], executable: executable).map(\.path)
        #expect(defaults.contains("/usr/local/share/raudio/voices") && defaults.contains("/usr/share/raudio/voices"))
    }

    @Test func aPresetNamesTheNeuralVoiceOfItsLanguageAsPiperName() throws {
        let english = try VoicePreset.parse(Data(#"{"language": "en-US", "voice": "en-us", "neural": "piper:en_US-joe-medium"}"#.utf8), file: "en-US.json")
        #expect(english.neuralVoice == "piper:en_US-joe-medium")
        #expect(try VoicePreset.parse(Data(#"{"language": "fr", "voice": "fr"}"#.utf8), file: "fr.json").neuralVoice == nil)
        for bad in [#""en_US-joe-medium""#, #""piper:""#, "42"] {
            #expect {
                try VoicePreset.parse(Data(#"{"language": "en", "voice": "en-us", "neural": \#(bad)}"#.utf8), file: "en.json")
            } throws: { error in
                "\(error)".hasPrefix("en.json: \"neural\" must name a Piper voice as \"piper:NAME\"")
            }
        }
        #expect(VoicePresets.load(environment: [:]).presets.preset(forLanguage: Language(code: "en-US"))?.neuralVoice == "piper:en_US-joe-medium")
    }

    @Test func builtInPresetsMatchTheShippedFiles() {
        let shipped = VoicePresets.load(environment: [:]).presets
        #expect(shipped.defaultPreset.voice == VoicePresets.builtIn.defaultPreset.voice)
        for preset in VoicePresets.builtIn.presets {
            let file = shipped.preset(forLanguage: preset.language!)
            #expect(file?.voice == preset.voice && file?.rate == preset.rate && file?.pitch == preset.pitch
                    && file?.neuralVoice == preset.neuralVoice, "\(preset.language!)")
        }
        #expect(shipped.presets.count == VoicePresets.builtIn.presets.count)
    }

    @Test func presetRateAndPitchReachTheVoiceChosenForALanguage() throws {
        let engine = SpeechTesting.engine
        let japanese = try SpeechTesting.speak("日本語", language: "ja")
        #expect(japanese.voice.identifier == "ja")
        #expect(engine.presets.preset(forLanguage: Language(code: "ja"))?.rate == 150)
    }
}
