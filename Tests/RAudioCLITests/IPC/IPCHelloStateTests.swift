// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioCLI

/// The `hello` a client gets on connecting tells it the settings in use: a read-along page that joins after
/// the session's one `settings` event still shows the speed, the volume and the voice.
@Suite struct IPCHelloStateTests {
    @Test func helloCarriesTheLastSettingsEvent() throws {
        var hello = IPCHelloState()
        hello.apply(.settings(PlayerSettings(speed: 1, volume: 1, pitch: 1, voice: "gmw/en")))
        hello.apply(.settings(PlayerSettings(speed: 1.5, volume: 0.4, pitch: 1, voice: "roa/fr")))
        hello.apply(.state(.playing, locator: nil))
        let json = try #require(hello.event.json.objectValue)
        let settings = try #require(json["settings"]?.objectValue)
        #expect(settings["voice"]?.stringValue == "roa/fr")
        #expect(settings["speed"]?.doubleValue == 1.5)
        #expect(settings["volume"]?.doubleValue == 0.4)
        #expect(json["state"]?.stringValue == "playing")
    }

    @Test func helloBeforeAnySettingsHasNone() throws {
        var hello = IPCHelloState()
        hello.apply(.state(.loading, locator: nil))
        #expect(try #require(hello.event.json.objectValue)["settings"] == nil)
    }
}
