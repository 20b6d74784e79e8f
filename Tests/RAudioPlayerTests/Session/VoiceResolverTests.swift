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

    /// A word is not an edit of the two letters it starts with: `klingon` is near no voice (it named `kl`).
    @Test(arguments: ["klingon", "Klingon-x-tlh", "francais-extra"])
    func aLongWordIsNotNearTheVoiceOfItsFirstLetters(name: String) {
        let message = VoiceResolver.unknownMessage(name, in: engine)
        #expect(!message.contains("Close matches"), "\(message)")
    }

    /// An empty name asks for one; it lists no voice (every name starts with the empty one).
    @Test(arguments: ["", "  "])
    func anEmptyNameAsksForOne(name: String) {
        let message = VoiceResolver.unknownMessage(name, in: engine)
        #expect(message == VoiceResolver.emptyNameMessage)
        #expect(!message.contains("Close matches"))
    }
}
