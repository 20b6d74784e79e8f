// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// The `settings` event after a command names the setting in effect, as the navigator applied it.
@Suite struct SettingsSessionTests {
    @Test func aVoiceGivenAsALanguageIsAnnouncedAsTheVoiceChosen() async throws {
        var session = SessionHarness()
        session.controller.chosenVoice.withLock { $0 = "gmw/fr-FR" }
        try await session.command(#"{"command":"voice","value":"fr"}"#)
        #expect(session.controller.commands.contains(.voice("fr")), "the navigator is asked for what the listener typed")
        let settings = try #require(session.recorder.events("settings").last)
        #expect(settings["voice"]?.stringValue == "gmw/fr-FR")
    }

    @Test func otherSettingsAreAnnouncedAsSent() async throws {
        var session = SessionHarness()
        try await session.command(#"{"command":"speed","value":1.5}"#)
        let settings = try #require(session.recorder.events("settings").last)
        #expect(settings["speed"]?.doubleValue == 1.5)
    }
}
