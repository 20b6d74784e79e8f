// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Speech has no timeline: `seek` answers false; the listener's skips move by utterance.
extension PublicationSpeechSynthesizer: Navigator {
    public var currentLocator: Locator? { currentLocation }

    public nonisolated func navigatorEvent(for event: SpeechSynthesizerEvent) -> NavigatorEvent {
        switch event {
        case .stateChanged(let state, let locator): .stateChanged(state, locator)
        case .utterance(let utterance, let voice):
            .utterance(text: utterance.text, language: (utterance.language ?? voice.language).code,
                       voice: voice.identifier, locator: utterance.locator, languageSource: utterance.languageSource)
        case .media(let utterance, let source):
            .media(kind: utterance.role == .video ? .video : .audio, source: source, locator: utterance.locator)
        case .range(let locator): .range(locator)
        case .warning(let issue): .warning(issue)
        case .error(let issue): .error(issue)
        }
    }

    /// `resume()`: from where it paused, else from the beginning (or where `go(to:)` placed it).
    public func play() { resume() }

    /// `pauseOrResume()`.
    public func playPause() { pauseOrResume() }

    /// Does nothing: speech has no timeline (move with `goForward()`, `goBackward()` or `go(to:)`).
    public func seek(to seconds: Double) -> Bool { false }

    /// Does nothing: speech has no timeline.
    public func seek(by seconds: Double) -> Bool { false }

    /// `next()`.
    public func goForward() { next() }

    /// `previous()`.
    public func goBackward() { previous() }

    /// The next utterance.
    public func skipForward() { next() }

    /// The previous utterance.
    public func skipBackward() { previous() }
}
