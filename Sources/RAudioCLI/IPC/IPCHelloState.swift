// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared

/// What a client is told on connecting: the publication of the last `opened`, the last state and locator,
/// the last settings (so that a page joining late shows the speed, volume and voice in use).
///
/// Folded from the session's own events, on the IPC server's event loop.
struct IPCHelloState {
    private var publication: OpenedPublication?
    private var state = PlaybackState.loading
    private var locator: Locator?
    private var settings: PlayerSettings?

    mutating func apply(_ event: PlayerEvent) {
        switch event {
        case .opened(let opened): publication = opened
        case .state(let state, _, _, _): self.state = state
        case .settings(let settings): self.settings = settings
        default: break
        }
        if let locator = event.locator { self.locator = locator }
    }

    /// The `hello` event.
    var event: PlayerEvent {
        .hello(state: state, publication: publication, locator: locator, settings: settings)
    }
}
