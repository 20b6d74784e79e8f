// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Chapters: the table-of-contents entry being heard (`chapter` events), `chapter next|previous|N`,
/// and the end of a chapter for `sleep chapter`.
extension SessionLoop {
    /// After each event, and before an utterance's (at `locator`, where it starts): when the entry being heard
    /// changed, a `chapter` event (and the pause of `sleep chapter`). The entries of an utterance's file that
    /// start at an `#id` are placed first when the background placing has not reached them yet.
    public mutating func followChapters(at utterance: Locator? = nil) async throws(ReaderGone) {
        if let utterance, let map = chapters, map.hasUnplacedFragments(inResourceOf: utterance), let publication {
            chapters = await BlockingWork.run(named: "raudio.chapters") { map.placingFragments(of: publication, inResourceOf: utterance) }
        }
        guard let chapters, let locator = utterance ?? lastLocator, let index = chapters.index(of: locator, hint: currentChapter), index != currentChapter else { return }
        let previous = currentChapter
        currentChapter = index
        let movedByTheListener = isNavigating
        isNavigating = false
        try writer.write(.chapter(chapters.entries[index], index: index, locator: locator))
        // `sleep chapter` pauses when a chapter was played to its end: not at a chapter the listener
        // moved to (`chapter next`, a seek), nor when playback goes back.
        if let previous, index > previous, !movedByTheListener, let sleepTimer, sleepTimer.untilChapterEnd {
            let faded = sleepTimer.isFading
            sleepTimer.cancel()
            try? await controller.perform(.pause)
            // The fade is over: the next `play` is heard at the listener's volume.
            if faded { try? await controller.perform(.volume(volume)) }
            try writer.write(.sleep(SleepEvent(state: .fired, locator: locator)))
        }
    }

    /// `chapter next`, `chapter previous` (the start of this entry, or the one before within its first
    /// 3 seconds), `chapter N`.
    public mutating func goToChapter(_ request: ChapterRequest, request command: PlayerCommandRequest) async throws(ReaderGone) {
        guard let chapters, !chapters.entries.isEmpty else {
            try writer.report(.error, code: "command-unsupported", message: "'chapter' needs a table of contents, and this publication has none", fatal: false, id: command.id)
            return
        }
        let count = chapters.entries.count
        let target: Int
        switch request {
        case .next:
            target = (currentChapter ?? -1) + 1
        case .previous:
            let current = currentChapter ?? 0
            target = isNearStart(of: chapters.entries[current]) ? current - 1 : current
        case .number(let number):
            target = number - 1
        }
        guard (0..<count).contains(target) else {
            let what = switch request {
            case .next: "the last chapter is playing"
            case .previous: "the first chapter is playing"
            case .number(let number): "there is no chapter \(number); they go from 1 to \(count)"
            }
            try writer.report(.error, code: "command-bad-value", message: "chapter: \(what)", fatal: false, id: command.id)
            return
        }
        let entry = chapters.entries[target]
        do {
            if let start = entry.start {
                try await controller.perform(.seek(.absolute(seconds: start)))
            } else {
                try await controller.perform(.go(locatorJSON: entry.locator.json.data))
            }
        } catch {
            try writer.report(.error, code: error.code, message: "chapter \(target + 1): \(error.message)", fatal: false, id: command.id)
            return
        }
        try writer.write(.ack(command.command, id: command.id))
    }

    /// Whether the last position heard is within 3 s of `entry`'s start (audio; text is never "near").
    private func isNearStart(of entry: ChapterMap.Entry) -> Bool {
        guard let start = entry.start, let chapters, let locator = lastLocator, let time = chapters.time(of: locator) else { return false }
        return time - start < 3
    }
}

extension SessionEvent {
    /// The event inside any `withAudioLocator` wrapping.
    public var innermost: SessionEvent {
        if case .withAudioLocator(let inner, _) = self { return inner.innermost }
        return self
    }

    /// Where an utterance (spoken or narrated, or a page's media) starts; nil for other events.
    public var utteranceLocator: Locator? {
        switch innermost {
        case .utterance(_, _, _, let locator, _), .narration(_, _, let locator), .media(_, _, let locator): locator
        default: nil
        }
    }

    /// Whether the event may begin another chapter of `chapters`: a track or utterance always may, a
    /// position only when an entry starts inside a resource (a `range` or a warning never does).
    public func mayChangeChapter(in chapters: ChapterMap) -> Bool {
        switch self {
        case .track, .utterance, .narration, .media, .stateChanged: true
        case .position: chapters.hasEntriesInsideResources
        case .withAudioLocator(let inner, _): inner.mayChangeChapter(in: chapters)
        case .range, .warning, .error: false
        }
    }
}
