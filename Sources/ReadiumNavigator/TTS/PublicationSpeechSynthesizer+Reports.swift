// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension SpeechSynthesizerEvent: NavigatorIssueEvent {}

/// What the shared `RenderSession` asks of the speech synthesizer: a target is an utterance (an item
/// of the renderer), and heard positions become `utterance` and `range` events.
extension PublicationSpeechSynthesizer: RenderSessionOwner {
    var issueLocator: Locator? { currentLocation }

    func stateChangedEvent(_ state: PlaybackState) -> SpeechSynthesizerEvent {
        .stateChanged(state, currentLocation)
    }

    func willLoad(_ target: SpeechTarget) -> RenderStart {
        targetItem = target.item
        unannouncedLoad = nil
        if target.item != resumed?.to { resumed = nil }
        return RenderStart(item: target.item, seconds: 0)
    }

    func didHear(_ position: RenderPosition, in report: HeardPositionReport) {
        if report == .loaded {
            hasLoadedAny = true
            targetItem = nil
        }
        hear(position, reportingWords: report == .playing || report == .limitReached, continuing: report != .loaded)
    }

    func skippedItemIssue(_ issue: RenderIssue) -> NavigatorIssue? {
        // A synthesis cancelled by a seek or a new setting is no failure.
        guard issue.code != .init(TTSError.Code.cancelled) else { return nil }
        return issue.skippedWarning(at: source.plannedUtterance(at: issue.item)?.locator)
    }

    func nothingPlayableIssue() -> NavigatorIssue? {
        guard !hasLoadedAny else { return nil }
        return NavigatorIssue(code: .noText, message: "\(publication.title): there is no text to speak from here",
                              fatal: true, locator: currentLocation)
    }

    func willHandle(_ report: RenderReport) {
        reportContentWarnings()
    }

    func willEndPublication() {
        finishWords()
    }

    /// Waits (off the actor) for the words of every utterance opened up to the one a report hears:
    /// an utterance played while still being synthesized gets its words with the end of its
    /// synthesis, and its `utterance` and `range` events must neither be dropped nor reordered.
    /// `.loaded` does not wait: the output starts once it is handled (see `hear`).
    nonisolated func prepare(for report: RenderReport) async {
        let item: Int
        switch report {
        case .position(_, let position), .limitReached(_, let position):
            item = position.item
        case .outputLost(_, _, let position?):
            item = position.item
        case .publicationEnded:
            item = .max
        default:
            return
        }
        await source.wordsKnown(through: item)
    }

    /// Records the heard position: announces a new utterance, then reports the words heard up to it.
    ///
    /// `continuing` (not a new load): playback went on from the announced utterance, so the
    /// utterances opened between it and `position` were heard whole, however short they were or far
    /// behind the render thread these reports are: each is announced, in order, with all its words.
    func hear(_ position: RenderPosition, reportingWords: Bool, continuing: Bool = true) {
        if let moved = resumed, position.item == moved.to, announcedItem == moved.from,
           let (_, pcm) = source.openedUtterance(at: moved.to) {
            // The same utterance, resumed at a word with new settings: its new PCM, words counted anew.
            resumed = nil
            if targetItem == moved.to { targetItem = nil }
            announcedItem = moved.to
            announced?.pcm = pcm.droppingSamples()
            reportedWords = 0
        }
        if position.item != announcedItem {
            guard let (utterance, pcm) = source.openedUtterance(at: position.item) else {
                // A load reached an utterance still being synthesized (played as it arrives): it is
                // announced, or takes over as the resumed one, with the first heard position once its
                // words are known (`prepare(for:)` holds those reports until then). Commands count
                // from it meanwhile.
                if !continuing {
                    targetItem = position.item
                    if resumed?.to != position.item { unannouncedLoad = position.item }
                }
                return
            }
            if let loaded = unannouncedLoad {
                // The first position heard since that load: the loaded utterance and each one opened
                // since were heard (nothing before the load is finished).
                unannouncedLoad = nil
                if targetItem == loaded { targetItem = nil }
                for (item, passed, passedPCM) in source.openedUtterances(after: loaded - 1, before: position.item) {
                    announce(passed, pcm: passedPCM, at: item)
                    finishWords()
                }
            } else if continuing, let previous = announcedItem, position.item > previous {
                // Heard to their ends: the announced utterance, then each one opened since (an
                // utterance that failed to synthesize was never opened, so is not announced).
                finishWords()
                for (item, passed, passedPCM) in source.openedUtterances(after: previous, before: position.item) {
                    announce(passed, pcm: passedPCM, at: item)
                    finishWords()
                }
            }
            announce(utterance, pcm: pcm, at: position.item)
        }
        guard reportingWords, let (utterance, pcm) = announced else { return }
        let boundaries = pcm.wordBoundaries
        while reportedWords < boundaries.count, boundaries[reportedWords].startFrame <= position.frame {
            reportWord(boundaries[reportedWords], of: utterance)
        }
    }

    /// Emits the `utterance` event of item `item` (and its voice fallback warning, once per warning),
    /// or its `media` event when it is the page's own audio; its words are reported from its first.
    private func announce(_ utterance: SpeechUtterance, pcm: SynthesizedUtterance, at item: Int) {
        announcedItem = item
        announced = (utterance, pcm.droppingSamples())
        source.forgetOpened(before: item)
        lastUtteranceLocator = utterance.locator
        reportedWords = 0
        lastRange = nil
        if utterance.isMedia {
            emit(.media(utterance, source: source.playedMediaSource(at: item) ?? utterance.media[0]))
            return
        }
        emit(.utterance(utterance, voice: pcm.voice))
        if let warning = pcm.warning, reportedWarnings.insert(warning).inserted {
            emit(.warning(NavigatorIssue(code: .voiceFallback, message: warning, href: utterance.locator.href,
                                         fatal: false, locator: utterance.locator)))
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
            let code: NavigatorIssue.Code = warning.kind == .pronunciation ? .pronunciation
                : warning.message.hasPrefix("skipped") ? .chapterSkipped : .chapterRepaired
            emit(.warning(NavigatorIssue(code: code, message: warning.description, href: warning.source, fatal: false)))
        }
        reportedContentWarnings = all.count
    }
}
