// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

@testable import ReadiumShared

@Suite struct LanguageAndMediaTypeTests {
    @Test(arguments: [("en-us", "en-US", "en", "US"), ("fr_FR", "fr-FR", "fr", "FR"), ("zh-hant-tw", "zh-Hant-TW", "zh", "TW"), ("ja", "ja", "ja", nil)] as [(String, String, String, String?)])
    func languagesAreCanonicalized(input: String, code: String, base: String, region: String?) {
        let language = Language(code: input)
        #expect(language.code == code)
        #expect(language.baseCode == base)
        #expect(language.region == region)
        #expect(language == Language(code: code.uppercased()))
    }

    @Test func mediaTypesCompareIgnoringCaseAndParameters() throws {
        let type = try #require(MediaType("Audio/MPEG; foo=bar"))
        #expect(type.matches(.mp3))
        #expect(type.essence == "audio/mpeg")
        #expect(MediaType("not a type") == nil)
        #expect(MediaType.forFileExtension("M4B") == .mp4Audio)
    }
}
