// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import RAudioPlayer
import Testing

/// An unknown `--voice` is answered with the voices near what was typed, and only those (eSpeak NG's own).
@Suite struct VoiceResolverTests {
    let engine: ESpeakEngine

    init() throws { engine = try ESpeakEngine(presets: .builtIn) }

    @Test func aTypoIsAnsweredWithTheVoicesNearIt() {
        let message = VoiceResolver.unknownMessage("frr", in: engine)
        #expect(message.contains("Close matches: fr"), "\(message)")
    }

    /// Every two-letter voice is two edits from `xx`: none of them is near it, so none is named.
    @Test func aNameNearNoVoiceListsNone() {
        let message = VoiceResolver.unknownMessage("xx", in: engine)
        #expect(!message.contains("Close matches"), "\(message)")
        #expect(message.contains("see raudio voices"))
    }
}
