// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

extension TTSVoice {
    /// The voice as a rendered book's narrator names it, engine and voice: "eSpeak NG French (France)",
    /// "Piper en_US joe (medium)" (its identifier, `fr` or `piper:en_US-joe-medium`, names no one).
    public var narratorName: String {
        if identifier.hasPrefix(PiperVoiceFile.identifierPrefix) {
            // `piper:LOCALE-DATASET-QUALITY`; a dataset may hold dashes.
            let parts = identifier.dropFirst(PiperVoiceFile.identifierPrefix.count).split(separator: "-").map(String.init)
            guard parts.count >= 3 else { return "Piper " + parts.joined(separator: "-") }
            return "Piper \(parts[0]) \(parts[1..<(parts.count - 1)].joined(separator: "-")) (\(parts[parts.count - 1]))"
        }
        let spoken = name.replacingOccurrences(of: "_", with: " ")
        return "eSpeak NG " + (spoken.isEmpty ? identifier : spoken)
    }
}
