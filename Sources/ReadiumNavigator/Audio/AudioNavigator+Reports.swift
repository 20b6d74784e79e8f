// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension AudioNavigatorEvent: NavigatorIssueEvent {}

/// What the shared `RenderSession` asks of the audiobook navigator: a target is a track and time.
extension AudioNavigator: RenderSessionOwner {
    var issueLocator: Locator? { currentLocation }

    func stateChangedEvent(_ state: PlaybackState) -> AudioNavigatorEvent {
        .stateChanged(state, currentLocation)
    }

    func willLoad(_ target: AudioTarget) -> RenderStart {
        heardTrack = target.track
        heardSeconds = target.seconds
        lastPositionEvent = nil
        return RenderStart(item: target.track, seconds: target.seconds, endSeconds: target.clipEnd)
    }

    func didHear(_ position: RenderPosition, in report: HeardPositionReport) {
        if report == .loaded {
            openedTracks.insert(position.item)
            lastSkipped = nil
        }
        hear(position)
        if report == .playing {
            if position.frame > 0 { hasHeardAudio = true }
            emitPositionIfDue()
        }
    }

    func didStart(item: Int) {
        openedTracks.insert(item)
        lastSkipped = nil
    }

    func skippedItemIssue(_ issue: RenderIssue) -> NavigatorIssue? {
        failedTracks.insert(issue.item)
        lastSkipped = issue
        return issue.skippedWarning(at: timeline.locator(track: issue.item, seconds: 0))
    }

    /// The last track was skipped: the book's end was not heard, so it ends as a failure (the place kept
    /// where the listener was), never as a book finished. Nothing was heard at all: `no-playable-track`.
    func unheardEndIssue() -> NavigatorIssue? {
        guard let skipped = lastSkipped, skipped.item == timeline.count - 1 else { return nil }
        if !hasHeardAudio {
            return NavigatorIssue(code: .noPlayableTrack, message: "\(publication.title): no track of the reading order can be played (\(skipped.message))",
                                  href: skipped.href, fatal: true, locator: currentLocation, cause: skipped.cause)
        }
        return NavigatorIssue(code: skipped.code, message: "\(skipped.message); the end of the book was not heard", href: skipped.href,
                              fatal: true, locator: currentLocation, cause: skipped.cause)
    }

    func nothingPlayableIssue() -> NavigatorIssue? {
        guard openedTracks.isEmpty && failedTracks.count >= timeline.count else { return nil }
        return NavigatorIssue(code: .noPlayableTrack, message: "\(publication.title): no track of the reading order can be played",
                              fatal: true, locator: currentLocation)
    }

    /// Records the heard position and announces a track change.
    func hear(_ position: RenderPosition) {
        heardTrack = position.item
        heardSeconds = position.seconds
        if lastTrackAnnounced != position.item, timeline.tracks.indices.contains(position.item) {
            lastTrackAnnounced = position.item
            emit(.trackChanged(index: position.item, link: timeline.tracks[position.item].link, currentLocation))
        }
    }

    /// Emits `.position` when `positionInterval` of media time has passed since the last one.
    func emitPositionIfDue() {
        guard session.machine.state == .playing else { return }
        if let last = lastPositionEvent, last.track == heardTrack,
           abs(heardSeconds - last.seconds) < configuration.positionInterval {
            return
        }
        if let last = lastPositionEvent, last.track != heardTrack,
           let lastTime = timeline.time(track: last.track, seconds: last.seconds),
           let now = timeline.time(track: heardTrack, seconds: heardSeconds),
           abs(now - lastTime) < configuration.positionInterval {
            return
        }
        lastPositionEvent = (heardTrack, heardSeconds)
        emit(.position(currentLocation))
    }
}

/// Track durations the manifest does not give.
extension AudioNavigator {
    /// Probes, on a background thread, the durations the manifest does not give.
    nonisolated func startProbing() {
        let missing = publication.readingOrder.enumerated().filter { $0.element.duration == nil }.map(\.offset)
        guard !missing.isEmpty else { return }
        let publication = publication
        let probe = components.probeDuration
        BlockingWork.startThread(named: "raudio.probe") { [weak self] in
            for index in missing {
                guard self != nil else { return }
                let link = publication.readingOrder[index]
                guard let resource = try? publication.resource(at: link.hrefWithoutFragment),
                      let seconds = probe(resource) else { continue }
                Task { [weak self] in await self?.didProbe(track: index, seconds: seconds) }
            }
        }
    }

    func didProbe(track: Int, seconds: Double) {
        timeline.setDuration(seconds, ofTrack: track)
    }
}
