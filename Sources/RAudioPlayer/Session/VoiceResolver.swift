// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// Finds a voice from what a user typed: a voice identifier, or a BCP-47 tag one voice speaks.
public enum VoiceResolver {
    public static func voice(for text: String, in engine: any TTSEngine) -> TTSVoice? {
        if let voice = engine.voice(withIdentifier: text) { return voice }
        let language = Language(code: text)
        guard language.isWellFormed else { return nil }
        let choice = engine.voice(forLanguage: language)
        return choice.isFallback ? nil : choice.voice
    }

    /// "no voice or language X. Close matches: ..." for a usage error.
    public static func unknownMessage(_ text: String, in engine: any TTSEngine) -> String {
        let wanted = text.lowercased()
        // Every name starts with the empty one: nothing to suggest, a name to ask for.
        if wanted.allSatisfy(\.isWhitespace) { return emptyNameMessage }
        // Two edits turn any two-letter name into any other: short names are near at one edit only.
        let nearness = wanted.count <= 3 ? 1 : 2
        let identifiers = engine.availableVoices.map(\.identifier)
            .filter { EditDistance.between(wanted, $0) <= nearness || $0.hasPrefix(wanted) }
            .sorted { (EditDistance.between(wanted, $0), $0) < (EditDistance.between(wanted, $1), $1) }
            .prefix(8)
        var message = "no voice or language \"\(text)\" (see raudio voices)"
        if !identifiers.isEmpty { message += ". Close matches: \(identifiers.joined(separator: ", "))" }
        else { message += closeMatches(to: text, in: engine.availableVoices) }
        return message
    }

    /// What an empty voice name is told.
    public static let emptyNameMessage = "a voice name or language is needed, for example fr, en-GB or piper:en_US-joe-medium (raudio voices lists them)"

    /// ". Close matches: ..." listing voice languages near `tag`, or "" when none is near.
    public static func closeMatches(to tag: String, in voices: [TTSVoice]) -> String {
        let wanted = tag.lowercased().replacingOccurrences(of: "_", with: "-")
        var seen: Set<String> = []
        let codes = voices.flatMap(\.languages).map(\.code).filter { seen.insert($0.lowercased()).inserted }
        // A tag longer than every voice's by more than one edit is near none: no distance is worth computing.
        guard wanted.count <= (codes.map(\.count).max() ?? 0) + 1 else { return "" }
        // Only a language subtag (two or three letters, as in "fra-CA" or "enn") is compared with the voices'
        // base languages: a longer word ("klingon") is not an edit of the two letters it starts with.
        let wantedBase = String(wanted.split(separator: "-").first ?? "")
        let scored = codes.map { code -> (String, Int) in
            let lower = code.lowercased()
            let base = String(lower.split(separator: "-").first ?? "")
            var distance = EditDistance.between(wanted, lower)
            if wantedBase.count <= 3 { distance = min(distance, EditDistance.between(wantedBase, base) + (lower == base ? 0 : 1)) }
            return (code, distance)
        }
        let close = scored.filter { $0.1 <= 1 || (!wanted.isEmpty && $0.0.lowercased().hasPrefix(wanted)) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(8).map(\.0)
        return close.isEmpty ? "" : ". Close matches: \(close.joined(separator: ", "))"
    }

}
