// SPDX-License-Identifier: GPL-3.0-or-later
@testable import RAudioEngine
import ReadiumShared
import Testing

/// IPA to eSpeak NG mnemonics, and the text eSpeak NG is given with phonemes in it.
struct ESpeakPhonemeMappingTests {
    @Test(arguments: [
        ("ˈθɜrti dɪˈgriz", "'T3:ti dI'gri:z"),
        ("ˌnɔrθˈist", ",nO@T'i:st"),
        ("ˈkyubɛb", "'kju:bEb"),
        ("ˈɑrtʃəˌbɔld", "'A@tS@,bO:ld"),
        ("ˈtʃɛrəˌki", "'tSEr@,ki"),
        ("ˈdʒɛfərsən", "'dZEf3s@n"),
        ("ˈkæntn̩", "'kantn-"),
        ("laʊndz", "laUndz"),
        ("t͡ʃoʊ", "tSoU"),
    ])
    func englishIPABecomesESpeakMnemonics(ipa: String, expected: String) {
        #expect(ESpeakPhonemeMapping.mnemonics(forIPA: ipa, languageCode: "en-US") == expected)
    }

    @Test func aSymbolWithoutAnESpeakPhonemeGivesNothing() {
        #expect(ESpeakPhonemeMapping.mnemonics(forIPA: "ǃxóõ", languageCode: "en") == nil)
        #expect(ESpeakPhonemeMapping.mnemonics(forIPA: "ˈkyubɛb", languageCode: "fr") == nil, "y is /j/ in English only")
    }

    @Test func phonemesReplaceTheirTextAndEventPositionsPointBackAtIt() {
        let text = "It is 30° N. of [here]."
        let spans = [PhonemeSpan(range: 6..<10, phonemes: "ˈθɜrti dɪˈgriz"), PhonemeSpan(range: 11..<13, phonemes: "nɔrθ")]
        let given = ESpeakPhonemeText(text: text, phonemes: spans, languageCode: "en")
        #expect(given.text == "It is [['T3:ti dI'gri:z]] [[nO@T]] of (here).")
        #expect(given.hasPhonemes)
        let scalars = Array(given.text.unicodeScalars)
        // Every scalar of a [[...]] stands for its span's first scalar; the rest keep their own.
        #expect(given.originalScalarOffset(scalars.firstIndex(of: "T")!) == 6)
        #expect(given.originalScalarOffset(scalars.firstIndex(of: "n")!) == 10)
        let of = given.text.unicodeScalars.count - " of (here).".unicodeScalars.count + 1
        #expect(given.originalScalarOffset(of) == 13)
    }

    @Test func phonemesWithoutMnemonicsAreSpokenAsWritten() {
        let given = ESpeakPhonemeText(text: "Say ǃXóõ now.", phonemes: [PhonemeSpan(range: 4..<11, phonemes: "ǃxóõ")], languageCode: "en")
        #expect(given.text == "Say ǃXóõ now.")
        #expect(!given.hasPhonemes)
        #expect(given.unmapped == ["ǃxóõ"])
    }
}
