// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// A navigator that plays recorded audio (`AudioNavigator`, `MediaOverlayNavigator`): the commands
/// both answer alike, so that their controllers share them.
protocol RecordingNavigator: Actor {
    var state: PlaybackState { get }
    var currentLocation: Locator { get }
    func play()
    func pause()
    func playPause()
    func stop()
    func go(to locator: Locator) async throws(AudioNavigatorError)
    func setSpeed(_ speed: Double)
    func setVolume(_ volume: Double)
    func close() async
}

extension AudioNavigator: RecordingNavigator {}
extension MediaOverlayNavigator: RecordingNavigator {}
