// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

extension ListeningMemory {
    /// Where a resumed session starts.
    public enum Resumption: Sendable {
        /// Nothing to resume: the book is new, was finished, or its place was never saved.
        case fromTheStart
        /// At the saved place, said as a person reads it ("0:08 into Chapter 2 · 0:32 / 1:01").
        case resumed(place: String, at: Locator)
        /// The saved place no longer fits the book (it changed): the book starts from the beginning.
        case savedPlaceLost(Locator, because: any Error)
    }

    /// Moves `navigator` to where the book was left, before playback starts. An audiobook goes back a
    /// little more the longer the pause was (`AutoRewind`); speech starts again at the sentence it was in.
    public func resume(_ navigator: some Navigator, chapters: ChapterMap?) async -> Resumption {
        guard let resume = resumePoint else { return .fromTheStart }
        do {
            try await navigator.go(to: resume.locator)
        } catch {
            return .savedPlaceLost(resume.locator, because: error)
        }
        let audio = navigator as? AudioNavigator
        if let audio, resume.rewind > 0 { await audio.seek(by: -resume.rewind) }
        let place = PlaceDescription.describe(resume.locator, chapters: chapters, bookLength: await audio?.totalDuration)
        return .resumed(place: place, at: resume.locator)
    }
}
