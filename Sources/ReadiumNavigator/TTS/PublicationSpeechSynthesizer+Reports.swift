import ReadiumShared

/// State-machine actions performed, render reports received, utterances and words reported.
extension PublicationSpeechSynthesizer {
    func handle(_ event: PlaybackEvent<SpeechTarget>) {
        perform(machine.handle(event))
    }

    func perform(_ actions: [PlaybackAction<SpeechTarget>]) {
        for action in actions {
            switch action {
            case .load(let target, let id):
                generation = id.rawValue
                targetItem = target.item
                renderer.load(item: target.item, seconds: 0, generation: id.rawValue)
            case .startOutput: renderer.start()
            case .pauseOutput: renderer.pause()
            case .resumeOutput: renderer.resume()
            case .flushOutput: renderer.flush()
            case .stopOutput: renderer.stop()
            case .drainOutput: renderer.release()
            case .reopenOutput, .advanceToNext:
                // The renderer continues with the next utterance by itself; losing the output is fatal.
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

    func emit(_ event: SpeechSynthesizerEvent) {
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
        reportContentWarnings()
        switch report {
        case .loaded(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            hasLoadedAny = true
            targetItem = nil
            hear(position, reportingWords: false)
            handle(.loaded(PlaybackLoadID(rawValue: reportGeneration)))
        case .position(let reportGeneration, let position):
            guard reportGeneration == generation, machine.state.isActive else { return }
            hear(position, reportingWords: true)
        case .itemStarted, .itemEnded:
            break
        case .itemFailed(let reportGeneration, let issue, _):
            guard reportGeneration == generation, issue.code != TTSError.Code.cancelled.rawValue else { return }
            pendingIssue = NavigatorIssue(code: issue.code, message: issue.message, href: issue.href, fatal: false,
                                          locator: source.plannedUtterance(at: issue.item)?.locator)
            handle(.error(fatal: false, hasNext: true))
        case .loadFailed(let reportGeneration):
            guard reportGeneration == generation else { return }
            if hasLoadedAny {
                pendingIssue = nil
                handle(.error(fatal: false, hasNext: false))
            } else {
                pendingIssue = NavigatorIssue(code: "no-text", message: "\(publication.title): there is no text to speak from here",
                                              fatal: true, locator: currentLocation)
                handle(.error(fatal: true, hasNext: false))
            }
        case .publicationEnded(let reportGeneration):
            guard reportGeneration == generation else { return }
            finishWords()
            handle(.endOfResource(hasNext: false))
        case .limitReached(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            hear(position, reportingWords: true)
            handle(.stop)
        case .outputLost(let reportGeneration, let error, let position):
            // Non-fatal: the render thread reconnects by itself and resumes at `position`.
            if reportGeneration == generation, let position { hear(position, reportingWords: false) }
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

    /// Records the heard position: announces a new utterance, then reports the words heard up to it.
    func hear(_ position: RenderPosition, reportingWords: Bool) {
        if position.item != announcedItem {
            guard let (utterance, pcm) = source.synthesized(at: position.item) else { return }
            if reportingWords, let previous = announcedItem, position.item == previous + 1 { finishWords() }
            announcedItem = position.item
            announced = (utterance, pcm.droppingSamples())
            lastUtteranceLocator = utterance.locator
            reportedWords = 0
            lastRange = nil
            emit(.utterance(utterance, voice: pcm.voice))
            if let warning = pcm.warning, reportedWarnings.insert(warning).inserted {
                emit(.warning(NavigatorIssue(code: "voice-fallback", message: warning, href: utterance.locator.href,
                                             fatal: false, locator: utterance.locator)))
            }
        }
        guard reportingWords, let (utterance, pcm) = announced else { return }
        let boundaries = pcm.wordBoundaries
        while reportedWords < boundaries.count, boundaries[reportedWords].startFrame <= position.frame {
            reportWord(boundaries[reportedWords], of: utterance)
        }
    }

    /// Reports the words of the announced utterance not reported yet (it was heard to its end).
    func finishWords() {
        guard let (utterance, pcm) = announced else { return }
        while reportedWords < pcm.wordBoundaries.count {
            reportWord(pcm.wordBoundaries[reportedWords], of: utterance)
        }
    }

    private func reportWord(_ boundary: TTSWordBoundary, of utterance: SpeechUtterance) {
        reportedWords += 1
        let locator = utterance.locator(forWordAt: boundary.range)
        lastRange = locator
        emit(.range(locator))
    }

    /// Emits the content service's new warnings (a malformed chapter skipped or repaired).
    func reportContentWarnings() {
        guard let contentWarnings else { return }
        let all = contentWarnings.warnings
        guard all.count > reportedContentWarnings else { return }
        for warning in all[reportedContentWarnings...] {
            let code = warning.message.hasPrefix("skipped") ? "chapter-skipped" : "chapter-repaired"
            emit(.warning(NavigatorIssue(code: code, message: warning.description, href: warning.source, fatal: false)))
        }
        reportedContentWarnings = all.count
    }
}
