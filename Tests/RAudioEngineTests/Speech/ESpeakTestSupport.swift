// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// One engine for the speech tests, with the presets shipped in `voices/`.
enum SpeechTesting {
    static let engine: ESpeakEngine = {
        let loaded = VoicePresets.load(folder: VoicePresets.searchPath(environment: [:]).first { $0.lastPathComponent == "voices" && FileManager.default.fileExists(atPath: $0.path) }!)
        return try! ESpeakEngine(presets: loaded.presets)
    }()

    static func speak(_ text: String, language: String, rate: Double = 1) throws -> SynthesizedUtterance {
        try engine.synthesizeBlocking(TTSUtterance(text: text, voiceOrLanguage: .language(Language(code: language)), rate: rate))
    }

    /// The words the boundaries cover, in order.
    static func words(of utterance: SynthesizedUtterance) -> [String] {
        utterance.wordBoundaries.map { String(utterance.text[$0.range]) }
    }
}
