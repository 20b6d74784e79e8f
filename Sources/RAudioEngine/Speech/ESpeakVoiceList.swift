// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import ReadiumNavigator
import ReadiumShared

/// Reads eSpeak NG's voices (`espeak_ListVoices`) as `TTSVoice`s. Call on the eSpeak thread only.
enum ESpeakVoiceList {
    /// Every voice, in eSpeak's order, one per identifier (the lowercased file name: `roa/fr` -> `fr`,
    /// `gmw/en-US` -> `en-us`), which `espeak_SetVoiceByName` accepts.
    static func read() -> [TTSVoice] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var voices: [TTSVoice] = []
        var identifiers: Set<String> = []
        var index = 0
        while let entry = list[index] {
            index += 1
            let voice = entry.pointee
            guard let file = voice.identifier.map({ String(cString: $0) }), !file.hasPrefix("mb/") else { continue }
            let identifier = String(file.split(separator: "/").last ?? Substring(file)).lowercased()
            let languages = languages(voice.languages)
            guard let language = languages.first, identifiers.insert(identifier).inserted else { continue }
            let name = voice.name.map { String(cString: $0) } ?? identifier
            let gender: TTSVoice.Gender = switch voice.gender {
            case 1: .male
            case 2: .female
            default: .unspecified
            }
            voices.append(TTSVoice(
                identifier: identifier, name: name, language: language,
                otherLanguages: Array(languages.dropFirst()), gender: gender
            ))
        }
        return voices
    }

    /// Decodes eSpeak's language list: (priority byte, NUL-terminated name) pairs ending with a 0 byte.
    private static func languages(_ pointer: UnsafePointer<CChar>?) -> [Language] {
        guard var cursor = pointer else { return [] }
        var languages: [Language] = []
        while cursor.pointee != 0 {
            cursor += 1 // the priority byte
            let name = String(cString: cursor)
            cursor += name.utf8.count + 1
            if !name.isEmpty, !languages.contains(Language(code: name)) { languages.append(Language(code: name)) }
        }
        return languages
    }
}
