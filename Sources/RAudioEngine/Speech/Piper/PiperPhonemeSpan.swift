// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A part of an utterance the Piper worker speaks as given IPA phonemes instead of phonemizing its letters: Piper's
/// models take the IPA as eSpeak NG writes it (`phoneme_id_map` of the voice's config), so the phonemes go in as
/// they are, but for a few spellings of the same sounds that eSpeak NG writes otherwise: `g` is `ɡ` (U+0261, the
/// only g in the map), `ɝ` is `ɜ˞`; in English, `r` is `ɹ` (English voices learnt the approximant under that
/// symbol) and `y` is `j` (American dictionaries, and georgia-pls-ssml's lexicon, write the /j/ of *cube* as `y`).
/// Pure.
struct PiperPhonemeSpan: Sendable, Hashable {
    /// Unicode scalar (code point) offsets into the utterance's text, as the worker's Python indexes it.
    var scalars: Range<Int>
    var ipa: String

    /// The spans of `phonemes` (UTF-8 offsets into `text`) for the worker, their IPA as a voice of `languageCode`
    /// knows it; spans that do not fall on scalar boundaries are left out.
    static func spans(of phonemes: [PhonemeSpan], in text: String, languageCode: String) -> [PiperPhonemeSpan] {
        phonemes.compactMap { span in
            guard span.range.upperBound <= text.utf8.count,
                  let lower = text.utf8.index(text.startIndex, offsetBy: span.range.lowerBound, limitedBy: text.endIndex),
                  let upper = text.utf8.index(text.startIndex, offsetBy: span.range.upperBound, limitedBy: text.endIndex),
                  let scalarLower = lower.samePosition(in: text.unicodeScalars), let scalarUpper = upper.samePosition(in: text.unicodeScalars) else { return nil }
            let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: scalarLower)
            let end = start + text.unicodeScalars.distance(from: scalarLower, to: scalarUpper)
            return PiperPhonemeSpan(scalars: start..<end, ipa: normalized(span.phonemes, languageCode: languageCode))
        }
    }

    /// `ipa` written as Piper's eSpeak NG-trained voices know its symbols.
    static func normalized(_ ipa: String, languageCode: String) -> String {
        let isEnglish = languageCode.lowercased().hasPrefix("en")
        var result = ""
        for scalar in ipa.unicodeScalars {
            switch scalar {
            case "g": result += "ɡ"
            case "ɝ": result += "ɜ˞"
            case "r" where isEnglish: result += "ɹ"
            case "y" where isEnglish: result += "j"
            case "'": result += "ˈ"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
