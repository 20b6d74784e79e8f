// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumNavigator
import ReadiumShared

extension ListeningMemory {
    /// The memory of `publication` opened from `path`, or nil with `--no-state` (or `RAUDIO_NO_STATE=1`) or
    /// when the store cannot be used (a warning on stderr says why). `RAUDIO_SAVE_INTERVAL` (seconds, for
    /// tests) replaces the 15 s between saves while playing. `autoRewind`: `raudio play`'s (speech starts again
    /// at its sentence: none).
    static func open(publication: Publication, path: String, mode: String, options: PlaybackOptions, autoRewind: AutoRewind = .off) -> ListeningMemory? {
        let environment = ProcessInfo.processInfo.environment
        guard !options.noState, environment["RAUDIO_NO_STATE"] != "1" else { return nil }
        let (store, warnings) = ListeningStateStore.open(directory: StateDirectory.resolve(option: options.stateDir))
        for warning in warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        guard let store else { return nil }
        do {
            return try ListeningMemory(store: store, publication: publication, path: path, mode: mode, autoRewind: autoRewind,
                                       saveInterval: environment["RAUDIO_SAVE_INTERVAL"].flatMap(Double.init) ?? 15,
                                       warn: { StandardStreams.printError("raudio: warning: \($0)") })
        } catch {
            StandardStreams.printError("raudio: warning: the listening state in \(store.file.path) cannot be used (\(error)); playing without it")
            return nil
        }
    }

    /// Goes where the book was left (`resume(_:chapters:)`), and says so on stderr; a saved position that no
    /// longer fits the book is said and ignored.
    func resumeSayingWhere(_ navigator: some Navigator, chapters: ChapterMap) async {
        switch await resume(navigator, chapters: chapters) {
        case .fromTheStart:
            break
        case .resumed(let place, _):
            StandardStreams.printError("raudio: resuming where the book was left: " + TerminalText.printable(place))
        case .savedPlaceLost(let locator, let error):
            StandardStreams.printError(TerminalText.printable("raudio: warning: the saved position (\(locator.href)) is not in this book any more (\(error)); starting from the beginning"))
        }
    }
}
