// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The render thread's reports, turned into state-machine events and the owner's callbacks.
extension RenderSession {
    /// Handles one report of the render thread (call in the order of `renderer.reports`).
    ///
    /// Reports older than the last load are dropped. After `close`, only a fatal output error is
    /// still emitted; `.finished` wakes `close`.
    func receive<Owner: RenderSessionOwner>(_ report: RenderReport, owner: isolated Owner)
    where Owner.Target == Target, Owner.Event == Event {
        if case .finished = report {
            rendererDidFinish()
            return
        }
        if isClosed {
            if case .outputFailed(_, let error) = report {
                emit(.error(NavigatorIssue(code: .init(error.code), message: error.message, fatal: true, locator: owner.issueLocator, cause: error)))
            }
            return
        }
        owner.willHandle(report)
        switch report {
        case .loaded(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            owner.didHear(position, in: .loaded)
            handle(.loaded(PlaybackLoadID(rawValue: reportGeneration)), owner: owner)
        case .position(let reportGeneration, let position):
            guard reportGeneration == generation, machine.state.isActive else { return }
            owner.didHear(position, in: .playing)
        case .itemStarted(let reportGeneration, let item, _):
            guard reportGeneration == generation else { return }
            owner.didStart(item: item)
        case .itemEnded, .finished:
            break
        case .itemFailed(let reportGeneration, let issue, _):
            guard reportGeneration == generation, let warning = owner.skippedItemIssue(issue) else { return }
            pendingIssue = warning
            handle(.error(fatal: false, hasNext: true), owner: owner)
        case .sourceFailed(let reportGeneration, let issue):
            guard reportGeneration == generation else { return }
            pendingIssue = owner.endingIssue(issue)
            handle(.error(fatal: true, hasNext: false), owner: owner)
        case .loadFailed(let reportGeneration):
            guard reportGeneration == generation else { return }
            // Fatal when nothing could ever be played; else the end of what could.
            pendingIssue = owner.nothingPlayableIssue()
            handle(.error(fatal: pendingIssue != nil, hasNext: false), owner: owner)
        case .publicationEnded(let reportGeneration):
            guard reportGeneration == generation else { return }
            owner.willEndPublication()
            if let issue = owner.unheardEndIssue() {
                // The last item was skipped: the end of the publication was not heard.
                pendingIssue = issue
                handle(.error(fatal: true, hasNext: false), owner: owner)
            } else {
                handle(.endOfResource(hasNext: false), owner: owner)
            }
        case .limitReached(let reportGeneration, let position):
            guard reportGeneration == generation else { return }
            owner.didHear(position, in: .limitReached)
            handle(.stop, owner: owner)
        case .outputLost(let reportGeneration, let error, let position):
            // Non-fatal: the render thread reconnects by itself and resumes at `position`.
            if reportGeneration == generation, let position { owner.didHear(position, in: .outputLost) }
            emit(.error(NavigatorIssue(code: .init(error.code), message: error.message, fatal: false, locator: owner.issueLocator, cause: error)))
            handle(.outputLost, owner: owner)
        case .outputRestored:
            handle(.outputRestored, owner: owner)
        case .buffering(let reportGeneration, let waiting):
            guard reportGeneration == generation else { return }
            handle(waiting ? .bufferingStarted : .bufferingEnded, owner: owner)
        case .outputFailed(_, let error):
            pendingIssue = NavigatorIssue(code: .init(error.code), message: error.message, fatal: true, locator: owner.issueLocator, cause: error)
            handle(.error(fatal: true, hasNext: false), owner: owner)
        }
    }
}

extension RenderIssue {
    /// This issue as the fatal error that stops playback, pointing at `locator` (where the listener is).
    func fatalError(at locator: Locator?) -> NavigatorIssue {
        NavigatorIssue(code: code, message: message, href: href, fatal: true, locator: locator, cause: cause)
    }

    /// This issue as a non-fatal navigator warning (the item is skipped) pointing at `locator`.
    func skippedWarning(at locator: Locator?) -> NavigatorIssue {
        NavigatorIssue(code: code, message: message, href: href, fatal: false, locator: locator, cause: cause)
    }
}
