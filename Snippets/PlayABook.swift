// SPDX-License-Identifier: GPL-3.0-or-later
// An app plays an audiobook with RAudioPlayer: it resumes where the listener left off, moves to the
// next chapter, bookmarks a place and sets a sleep timer, and follows the session's typed events.
//
// Run: swift run PlayABook samples/gull-rock.audiobook /tmp/raudio-state (twice: the second run resumes).
import Foundation
import RAudioEngine
import RAudioPlayer
import RAudioState
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

// snippet.hide
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: PlayABook BOOK STATE-FOLDER\n".utf8))
    exit(64)
}
let bookPath = arguments[1]
let stateFolder = URL(fileURLWithPath: arguments[2])
// snippet.show

/// Plays the book at `bookPath`, remembering the listener's place in `stateFolder`.
func play(_ bookPath: String, stateFolder: URL) async throws -> ExitStatus {
    // Open the book and make its navigator. Here the audio goes nowhere, in real time; an app plays to
    // `.pulse(server: nil, title: publication.title)`.
    let publication = try PublicationOpener(audioFileInspector: FFmpegAudioFileInspector()).open(url: URL(fileURLWithPath: bookPath))
    let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: .null, realtime: true))

    // The listening memory: where the book was left, its bookmarks and settings, kept in SQLite.
    let (store, _) = ListeningStateStore.open(directory: stateFolder)
    let memory = try store.map { try ListeningMemory(store: $0, publication: publication, path: bookPath, mode: "play") }

    // The session: its events as a stream for the app's view, its commands from the app.
    let events = EventStream()
    let remote = CommandChannel()
    let chapters = ChapterMap(publication: publication, timeline: await navigator.playbackTimeline)
    var session = PlayerSession(observers: [events], memory: memory, chapters: chapters)
    session.commands = [remote.commands]

    // The app's view follows the events and acts as a listener would.
    let view = Task {
        var chaptersHeard = 0
        for await event in events.events {
            switch event {
            case .opened(let book):
                print("opened: \(book.title), \(book.tableOfContents.count) chapters")
            case .chapter(let entry, let index, _):
                print("chapter \(index + 1): \(entry.title)")
                chaptersHeard += 1
                if chaptersHeard == 1 {
                    // Skip ahead one chapter...
                    remote.send(.chapter(.next))
                } else if chaptersHeard == 2 {
                    // ...bookmark it, and stop listening in two seconds.
                    remote.send(.bookmark(note: "where the story starts"))
                    remote.send(.sleep(.after(seconds: 2)))
                }
            case .bookmark(let bookmark):
                print("bookmark \(bookmark.id): \(bookmark.note ?? "")")
            case .sleep(let sleep) where sleep.state == .fired:
                print("the sleep timer paused playback")
                remote.send(.quit)
            case .error(let issue):
                print("error: \(issue.message)")
            default:
                break
            }
        }
    }

    let status = try await session.run(navigator, opened: .opened(publication, duration: await navigator.totalDuration)) {
        // Before playback starts: back to where the listener was.
        if case .resumed(let place, _) = await memory?.resume(navigator, chapters: chapters) {
            print("resuming at \(place)")
        }
        return nil
    }
    await view.value
    await navigator.close()
    return status
}

// snippet.hide
let status = try await play(bookPath, stateFolder: stateFolder)
print("exit status \(status.rawValue)")
exit(status.rawValue)
