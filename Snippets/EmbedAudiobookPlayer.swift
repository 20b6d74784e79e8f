// snippet.hide
// SPDX-License-Identifier: GPL-3.0-or-later
// Plays an audiobook with raudio's libraries and follows where it is: the program of RAudioEngine's
// article "Embedding the engine" (the article shows this file). Run: EmbedAudiobookPlayer BOOK [--null]
// snippet.show
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumStreamer

MemoryPolicy.applyForLongPlayback()
let publication = try PublicationOpener().open(url: URL(fileURLWithPath: CommandLine.arguments[1]))
let output: OutputDestination = CommandLine.arguments.contains("--null") ? .null : .pulse(server: nil, title: publication.title)
let navigator = try AudioNavigator(publication: publication, components: AudioEngineComponents.make(output: output))
await navigator.play()
for await event in navigator.events {
    switch event {
    case .trackChanged(_, let link, _): print("track \(link.title ?? link.href)")
    case .position(let locator): print("at \(Int((locator.locations.totalProgression ?? 0) * 100))%")
    case .stateChanged(.ended, _): await navigator.close()
    case .error(let issue) where issue.fatal: print("error: \(issue.message)"); await navigator.close()
    default: break
    }
}
