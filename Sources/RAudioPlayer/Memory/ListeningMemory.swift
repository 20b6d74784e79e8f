// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import ReadiumNavigator
import ReadiumShared

/// A session's link to the listening-state store: where to resume, and saving where the listener is
/// (on pause, stop, the end, a track change, every 15 s of playing, and when the session ends).
///
/// Runs on the session's task, never on the render thread. A store that fails is reported once through
/// `warn` and then left alone: playback never stops for it.
public final class ListeningMemory {
    public let store: ListeningStateStore
    public let key: String
    public let mode: String
    /// What the store held when the session started (before this session's saves).
    public let previous: BookRecord?
    private let autoRewind: AutoRewind
    private var lastLocator: Locator?
    private var lastAudioLocator: Locator?
    private let clock: any PlaybackClock
    private var lastSave: Double
    private var isPlaying = false
    private var failed = false
    /// How often a playing session saves its position.
    private let saveInterval: Double
    private let warn: @Sendable (String) -> Void
    /// The book's chapters (the session's map, placed or not): a text locator saved or bookmarked without
    /// a title gets its chapter's, so that `history` and `bookmarks` name the chapter without the book.
    public var chapters: ChapterMap?

    /// The memory of a publication; notes in the store that the book was opened.
    ///
    /// - Parameters:
    ///   - store: the listening-state store (`ListeningStateStore.open(directory:)`).
    ///   - publication: the book; its identity (`BookIdentity`) is its key in the store.
    ///   - path: where it was opened from, a file or a URL (for `history`).
    ///   - mode: the kind of session: `play`, `speak` or `narration`.
    ///   - autoRewind: how far back a resumed audiobook starts after a pause of a given length.
    ///   - saveInterval: how often a playing session saves its position, in seconds of `clock`.
    ///   - clock: the clock of `saveInterval` (a manual clock in tests).
    ///   - warn: told once when the store fails (then the memory stops writing).
    public init(
        store: ListeningStateStore, publication: Publication, path: String, mode: String, autoRewind: AutoRewind = .standard,
        saveInterval: Double = 15, clock: any PlaybackClock = SystemPlaybackClock(), warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        let key = BookIdentity.key(for: publication)
        previous = try store.book(key: key)
        let absolute = Href.isRemote(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        try store.opened(key: key, title: publication.title, path: absolute, mode: mode)
        self.store = store
        self.key = key
        self.mode = mode
        self.autoRewind = autoRewind
        self.saveInterval = max(0.1, saveInterval)
        self.clock = clock
        lastSave = clock.now
        self.warn = warn
    }

    /// Where to start: the saved locator, unless the book was finished or has none; and how far to go
    /// back from it, by how long ago it was saved (`AutoRewind`), for a navigator with a timeline.
    public var resumePoint: (locator: Locator, rewind: Double)? {
        guard let previous, !previous.finished, let json = previous.locator, let locator = try? Locator(jsonString: json, source: "the saved position") else {
            return nil
        }
        let pause = previous.savedAt.map { Date().timeIntervalSince1970 - $0 } ?? 0
        return (locator, autoRewind.rewind(afterPause: pause))
    }

    /// Settings remembered for the book.
    public var rememberedSettings: BookSettings {
        BookSettings(speed: previous?.speed, volume: previous?.volume, voice: previous?.voice, pitch: previous?.pitch)
    }

    /// Follows an event: remembers its locator and saves when the state changes, the track changes,
    /// or 15 s passed while playing.
    public func note(_ event: SessionEvent) {
        switch event {
        case .withAudioLocator(let inner, let audio):
            if let audio { lastAudioLocator = audio }
            note(inner)
        case .stateChanged(let state, let locator):
            if let locator { lastLocator = locator }
            let wasPlaying = isPlaying
            isPlaying = state == .playing
            switch state {
            // (A failure, or loading after playing, is how a lost audio server shows.)
            case .paused, .stopped, .failed: save(finished: false)
            case .loading where wasPlaying: save(finished: false)
            case .ended: save(finished: true)
            default: break
            }
        case .track(_, _, let locator):
            lastLocator = locator
            save(finished: false)
        case .position(let locator), .utterance(_, _, _, let locator, _), .narration(_, _, let locator), .media(_, _, let locator):
            lastLocator = locator
            if isPlaying, clock.now - lastSave >= saveInterval { save(finished: false) }
        case .range, .warning, .error:
            break
        }
    }

    /// Remembers settings given on the command line (nil ones are left as they were).
    public func remember(_ settings: BookSettings) {
        guard settings != BookSettings() else { return }
        attempt { try store.save(settings, key: key) }
    }

    /// Remembers a setting the listener changed.
    public func note(_ command: PlayerCommand) {
        let settings: BookSettings? = switch command {
        case .speed(let value): BookSettings(speed: value)
        case .volume(let value): BookSettings(volume: value)
        case .voice(let value): BookSettings(voice: value)
        case .pitch(let value): BookSettings(pitch: value)
        default: nil
        }
        guard let settings else { return }
        attempt { try store.save(settings, key: key) }
    }

    /// Bookmarks `locator` (the position heard); throws when the store fails.
    public func addBookmark(at locator: Locator, note: String?) throws -> Bookmark {
        try store.addBookmark(key: key, locator: titled(locator).json.serialized(), note: note)
    }

    public func bookmarks() throws -> [Bookmark] {
        try store.bookmarks(key: key)
    }

    /// The last save, when the session ends (quit, a signal, the end of `--duration`).
    public func sessionEnded(finished: Bool) {
        save(finished: finished)
    }

    private func save(finished: Bool) {
        guard let lastLocator else { return }
        lastSave = clock.now
        let position = SavedPosition(locator: titled(lastLocator).json.serialized(), audioLocator: lastAudioLocator?.json.serialized(),
                                     progression: lastLocator.locations.totalProgression, finished: finished)
        attempt { try store.save(position, key: key) }
    }

    /// `locator`, a text one given its chapter's title when it has none (an audio locator's title is
    /// already its table-of-contents entry's).
    private func titled(_ locator: Locator) -> Locator {
        guard locator.title == nil, !locator.type.hasPrefix("audio/"), let title = chapters?.title(of: locator) else { return locator }
        var titled = locator
        titled.title = title
        return titled
    }

    private func attempt(_ write: () throws -> Void) {
        guard !failed else { return }
        do {
            try write()
        } catch {
            failed = true
            warn("could not save the listening state in \(store.file.path) (\(error)); playback goes on without saving")
        }
    }
}
