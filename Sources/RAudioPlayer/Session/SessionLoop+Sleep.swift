// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// The sleep timer's commands and ticks (see `SleepTimer`).
extension SessionLoop {
    /// `sleep 30m`, `sleep +5m`, `sleep off` (and `--sleep`): answers with an `ack` (when asked on
    /// stdin) and a `sleep` event.
    public mutating func setSleep(_ request: SleepRequest, id: CommandID? = nil, acknowledging: Bool = true) async throws(ReaderGone) {
        guard let sleepTimer else { return }
        switch request {
        case .after(let seconds): sleepTimer.set(after: seconds)
        case .extend(let seconds): sleepTimer.extend(by: seconds)
        case .off:
            if sleepTimer.isFading { try? await controller.perform(.volume(volume)) }
            sleepTimer.cancel()
        case .endOfChapter:
            guard let chapters, !chapters.entries.isEmpty else {
                try writer.report(.error, code: "command-unsupported", message: "'sleep chapter' needs a table of contents, and this publication has none; give a time instead, for example sleep 30m",
                                  fatal: false, id: id)
                return
            }
            if sleepTimer.isFading { try? await controller.perform(.volume(volume)) }
            sleepTimer.cancel()
            sleepTimer.untilChapterEnd = true
        }
        if acknowledging { try writer.write(.ack(.sleep(request), id: id)) }
        let remaining = sleepTimer.remaining
        sleepTimer.announcedMinutes = remaining.map { Int(($0 / 60).rounded(.up)) }
        let isSet = remaining != nil || sleepTimer.untilChapterEnd
        try writer.write(.sleep(SleepEvent(state: isSet ? .set : .off, remaining: remaining, untilChapterEnd: sleepTimer.untilChapterEnd)))
    }

    /// `sleep chapter` in an audiobook: over the last 10 s of the chapter (media time, from the positions
    /// heard) the volume falls as with a timed sleep; the pause comes with the next chapter.
    public mutating func fadeBeforeChapterEnd() async throws(ReaderGone) {
        guard let sleepTimer, sleepTimer.untilChapterEnd, let chapters, let current = currentChapter, let locator = lastLocator,
              let end = chapters.end(ofEntry: current), let time = chapters.time(of: locator) else { return }
        let remaining = end - time
        guard remaining <= SleepTimer.fadeSeconds else {
            // Moved back out of the fade (a seek): the listener's volume again.
            if sleepTimer.isFading {
                sleepTimer.isFading = false
                try? await controller.perform(.volume(volume))
            }
            return
        }
        if !sleepTimer.isFading {
            sleepTimer.isFading = true
            try writer.write(.sleep(SleepEvent(state: .fading, remaining: max(0, remaining), untilChapterEnd: true)))
        }
        try? await controller.perform(.volume(volume * max(0, remaining) / SleepTimer.fadeSeconds))
    }

    /// Each tick: a `running` event each minute, the fade in the last seconds, the pause at the end.
    public mutating func sleepTick() async throws(ReaderGone) {
        guard let sleepTimer, let remaining = sleepTimer.remaining else { return }
        if remaining <= 0 {
            sleepTimer.cancel()
            try? await controller.perform(.pause)
            // The fade is over: the next `play` is heard at the listener's volume.
            try? await controller.perform(.volume(volume))
            try writer.write(.sleep(SleepEvent(state: .fired, remaining: 0, locator: await controller.status().locator ?? lastLocator)))
        } else if remaining <= SleepTimer.fadeSeconds {
            if !sleepTimer.isFading {
                sleepTimer.isFading = true
                try writer.write(.sleep(SleepEvent(state: .fading, remaining: remaining)))
            }
            try? await controller.perform(.volume(volume * remaining / SleepTimer.fadeSeconds))
        } else {
            let minutes = Int((remaining / 60).rounded(.up))
            if minutes != sleepTimer.announcedMinutes {
                sleepTimer.announcedMinutes = minutes
                try writer.write(.sleep(SleepEvent(state: .running, remaining: remaining)))
            }
        }
    }
}
