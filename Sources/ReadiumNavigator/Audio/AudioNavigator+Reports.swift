import Foundation
import ReadiumShared

/// State-machine actions performed, render reports received, events emitted.
extension AudioNavigator {
    func handle(_ event: PlaybackEvent<AudioTarget>) {
        perform(machine.handle(event))
    }

    func perform(_ actions: [PlaybackAction<AudioTarget>]) {
        for action in actions {
            switch action {
            case .load(let target, let id):
                generation = id.rawValue
                heardTrack = target.track
                heardSeconds = target.seconds
                lastPositionEvent = nil
                renderer.load(item: target.track, seconds: target.seconds, endSeconds: target.clipEnd, generation: id.rawValue)
            case .startOutput: renderer.start()
            case .pauseOutput: renderer.pause()
            case .resumeOutput: renderer.resume()
            case .flushOutput: renderer.flush()
            case .stopOutput: renderer.stop()
            case .drainOutput: renderer.release()
            case .reopenOutput:
                // The render thread reconnects by itself after `.outputLost` (RenderLoop+Reconnection).
                break
            case .advanceToNext:
                // The renderer continues with the next track by itself, gaplessly.
                break
            case .emitState(let state):
                emit(.stateChanged(state, currentLocation))
            case .reportWarning:
                if let issue = pendingIssue { emit(.warning(issue)) }
                pendingIssue = nil
            case .reportFatal:
                if let issue = pendingIssue { emit(.error(issue)) }
                pendingIssue = nil
            }
        }
    }

    func emit(_ event: AudioNavigatorEvent) {
        guard !isRendererFinished else { return }
        continuation.yield(event)
    }

    /// Handles one report of the render thread (in order).
    func receive(_ report: RenderReport) {
        if case .finished = report {
            isRendererFinished = true
            for waiter in finishWaiters { waiter.resume() }
            finishWaiters = []
            return
        }
        if isClosed {
            if case .outputFailed(_, let error) = report {
                emit(.error(NavigatorIssue(code: error.code.rawValue, message: error.message, fatal: true, locator: currentLocation)))
            }
            return
        }
        switch report {
        case .loaded(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            openedTracks.insert(position.item)
            hear(position)
            handle(.loaded(PlaybackLoadID(rawValue: reportGeneration)))
        case .position(let reportGeneration, let position):
            guard reportGeneration == generation, machine.state.isActive else { return }
            hear(position)
            emitPositionIfDue()
        case .itemStarted(let reportGeneration, let item, _):
            guard reportGeneration == generation else { return }
            openedTracks.insert(item)
        case .itemEnded:
            break
        case .itemFailed(let reportGeneration, let issue, _):
            guard reportGeneration == generation else { return }
            failedTracks.insert(issue.item)
            pendingIssue = NavigatorIssue(code: issue.code, message: issue.message, href: issue.href, fatal: false,
                                          locator: timeline.locator(track: issue.item, seconds: 0))
            handle(.error(fatal: false, hasNext: true))
        case .loadFailed(let reportGeneration):
            guard reportGeneration == generation else { return }
            if openedTracks.isEmpty && failedTracks.count >= timeline.count {
                pendingIssue = NavigatorIssue(code: "no-playable-track", message: "\(publication.title): no track of the reading order can be played",
                                              fatal: true, locator: currentLocation)
                handle(.error(fatal: true, hasNext: false))
            } else {
                pendingIssue = nil
                handle(.error(fatal: false, hasNext: false))
            }
        case .publicationEnded(let reportGeneration):
            guard reportGeneration == generation else { return }
            handle(.endOfResource(hasNext: false))
        case .limitReached(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            hear(position)
            handle(.stop)
        case .outputLost(let reportGeneration, let error, let position):
            // Non-fatal: the render thread reconnects by itself and resumes at `position`.
            if reportGeneration == generation, let position { hear(position) }
            emit(.error(NavigatorIssue(code: error.code.rawValue, message: error.message, fatal: false, locator: currentLocation)))
            handle(.outputLost)
        case .outputRestored:
            handle(.outputRestored)
        case .outputFailed(_, let error):
            pendingIssue = NavigatorIssue(code: error.code.rawValue, message: error.message, fatal: true, locator: currentLocation)
            handle(.error(fatal: true, hasNext: false))
        case .finished:
            break
        }
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
        guard machine.state == .playing else { return }
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

    /// Probes, on a background thread, the durations the manifest does not give.
    nonisolated func startProbing() {
        let missing = publication.readingOrder.enumerated().filter { $0.element.duration == nil }.map(\.offset)
        guard !missing.isEmpty else { return }
        let publication = publication
        let probe = components.probeDuration
        let thread = Thread { [weak self] in
            Thread.current.name = "raudio.probe"
            for index in missing {
                guard self != nil else { return }
                let link = publication.readingOrder[index]
                guard let resource = try? publication.resource(at: link.hrefWithoutFragment),
                      let seconds = probe(resource) else { continue }
                Task { [weak self] in await self?.didProbe(track: index, seconds: seconds) }
            }
        }
        thread.start()
    }

    func didProbe(track: Int, seconds: Double) {
        timeline.setDuration(seconds, ofTrack: track)
    }
}
