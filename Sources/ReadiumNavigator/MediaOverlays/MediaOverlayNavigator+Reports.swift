import Foundation
import ReadiumShared

/// State-machine actions performed, render reports received, events emitted.
extension MediaOverlayNavigator {
    func handle(_ event: PlaybackEvent<NarrationTarget>) {
        perform(machine.handle(event))
    }

    func perform(_ actions: [PlaybackAction<NarrationTarget>]) {
        for action in actions {
            switch action {
            case .load(let target, let id):
                generation = id.rawValue
                heardItem = target.item
                heardSeconds = target.seconds
                lastPositionEvent = nil
                lastAnnounced = nil
                renderer.load(item: target.item, seconds: target.seconds, generation: id.rawValue)
            case .startOutput: renderer.start()
            case .pauseOutput: renderer.pause()
            case .resumeOutput: renderer.resume()
            case .flushOutput: renderer.flush()
            case .stopOutput: renderer.stop()
            case .drainOutput: renderer.release()
            case .reopenOutput, .advanceToNext:
                break
            case .emitState(let state):
                emit(.stateChanged(state, locator: currentLocation, audioLocator: currentAudioLocation))
            case .reportWarning:
                if let issue = pendingIssue { emit(.warning(issue)) }
                pendingIssue = nil
            case .reportFatal:
                if let issue = pendingIssue { emit(.error(issue)) }
                pendingIssue = nil
            }
        }
    }

    func emit(_ event: MediaOverlayNavigatorEvent) {
        guard !isRendererFinished else { return }
        continuation.yield(event)
    }

    func receive(_ input: Input) {
        switch input {
        case .issue(let issue):
            if issue.code == "narration-audio-missing", let href = issue.href { missingAudio.insert(href) }
            if !isClosed { emit(.warning(issue)) }
        case .report(let report):
            receive(report)
        }
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
            openedAny = true
            hear(position)
            handle(.loaded(PlaybackLoadID(rawValue: reportGeneration)))
        case .position(let reportGeneration, let position):
            guard reportGeneration == generation, machine.state.isActive else { return }
            hear(position)
            emitPositionIfDue()
        case .itemStarted(let reportGeneration, _, _):
            guard reportGeneration == generation else { return }
            openedAny = true
        case .itemEnded:
            break
        case .itemFailed(let reportGeneration, let issue, _):
            guard reportGeneration == generation else { return }
            let locator = plan.items.indices.contains(issue.item) ? plan.items[issue.item].locator : currentLocation
            pendingIssue = NavigatorIssue(code: issue.code, message: issue.message, href: issue.href, fatal: false, locator: locator)
            handle(.error(fatal: false, hasNext: true))
        case .loadFailed(let reportGeneration):
            guard reportGeneration == generation else { return }
            if !openedAny {
                pendingIssue = NavigatorIssue(code: "no-playable-item", message: "nothing of the narration can be played",
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
        guard machine.state == .playing else { return }
        if let last = lastPositionEvent, last.item == heardItem, abs(heardSeconds - last.seconds) < configuration.positionInterval {
            return
        }
        lastPositionEvent = (heardItem, heardSeconds)
        emit(.position(locator: currentLocation, audioLocator: currentAudioLocation))
    }
}
