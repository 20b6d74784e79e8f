// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// Finds a voice from what a user typed: a voice identifier, or a BCP-47 tag one voice speaks.
enum VoiceResolver {
    static func voice(for text: String, in engine: any TTSEngine) -> TTSVoice? {
        if let voice = engine.voice(withIdentifier: text) { return voice }
        let language = Language(code: text)
        guard language.isWellFormed else { return nil }
        let choice = engine.voice(forLanguage: language)
        return choice.isFallback ? nil : choice.voice
    }

    /// "no voice or language X. Close matches: ..." for a usage error.
    static func unknownMessage(_ text: String, in engine: any TTSEngine) -> String {
        let wanted = text.lowercased()
        let identifiers = engine.availableVoices.map(\.identifier)
            .filter { EditDistance.between(wanted, $0) <= 2 || $0.hasPrefix(wanted) }
            .sorted { (EditDistance.between(wanted, $0), $0) < (EditDistance.between(wanted, $1), $1) }
            .prefix(8)
        var message = "no voice or language \"\(text)\" (see raudio voices)"
        if !identifiers.isEmpty { message += ". Close matches: \(identifiers.joined(separator: ", "))" }
        else { message += VoicesCommand.closeMatches(to: text, in: engine.availableVoices) }
        return message
    }
}
