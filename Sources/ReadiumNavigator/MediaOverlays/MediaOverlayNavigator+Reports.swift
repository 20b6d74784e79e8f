// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension MediaOverlayNavigatorEvent: NavigatorIssueEvent {}

/// What the shared `RenderSession` asks of the media-overlay navigator: a target is an item of the
/// `NarrationPlan` and seconds into its clip; events carry the text and the audio locators.
extension MediaOverlayNavigator: RenderSessionOwner {
    var issueLocator: Locator? { currentLocation }

    func stateChangedEvent(_ state: PlaybackState) -> MediaOverlayNavigatorEvent {
        .stateChanged(state, locator: currentLocation, audioLocator: currentAudioLocation)
    }

    func willLoad(_ target: NarrationTarget) -> RenderStart {
        heardItem = target.item
        heardSeconds = target.seconds
        lastPositionEvent = nil
        lastAnnounced = nil
        return RenderStart(item: target.item, seconds: target.seconds)
    }

    func didHear(_ position: RenderPosition, in report: HeardPositionReport) {
        if report == .loaded { openedAny = true }
        hear(position)
        if report == .playing { emitPositionIfDue() }
    }

    func didStart(item: Int) {
        openedAny = true
    }

    func skippedItemIssue(_ issue: RenderIssue) -> NavigatorIssue? {
        issue.skippedWarning(at: plan.items.indices.contains(issue.item) ? plan.items[issue.item].locator : currentLocation)
    }

    func nothingPlayableIssue() -> NavigatorIssue? {
        guard !openedAny else { return nil }
        return NavigatorIssue(code: .noPlayableItem, message: "nothing of the narration can be played",
                              fatal: true, locator: currentLocation)
    }

    /// Handles a source issue (a clip read with text-to-speech instead) or a render report, in order.
    func receive(_ input: Input) {
        switch input {
        case .issue(let issue):
            if issue.code == .narrationAudioMissing, let href = issue.href { missingAudio.insert(href) }
            if !session.isClosed { emit(.warning(issue)) }
        case .report(let report):
            receive(report)
        }
    }

    /// Records the heard position and announces a new item with an `utterance` event.
    func hear(_ position: RenderPosition) {
        guard plan.items.indices.contains(position.item) else { return }
        heardItem = position.item
        heardSeconds = position.seconds
        if lastAnnounced != position.item {
            lastAnnounced = position.item
            emit(.utterance(plan.items[position.item], locator: currentLocation, audioLocator: currentAudioLocation))
        }
    }

    func emitPositionIfDue() {
        guard session.machine.state == .playing else { return }
        if let last = lastPositionEvent, last.item == heardItem, abs(heardSeconds - last.seconds) < configuration.positionInterval {
            return
        }
        lastPositionEvent = (heardItem, heardSeconds)
        emit(.position(locator: currentLocation, audioLocator: currentAudioLocation))
    }
}
