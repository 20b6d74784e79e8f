// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared

/// `raudio play`'s options for EPUBs with media overlays (narrated books).
struct NarrationOptions: ParsableArguments {
    @Flag(name: .customLong("tts"), help: "Read the whole book with text-to-speech, ignoring its media overlays.")
    var forceTTS = false

    @Flag(name: .customLong("no-tts"), help: "Leave out what has no narration audio instead of reading it with text-to-speech.")
    var noTTS = false

    @Option(help: ArgumentHelp("Comma-separated epub:types and roles to skip in a narrated book (pagebreak, note, sidebar, ...); empty to skip none.", valueName: "types"))
    var skip: String = "pagebreak,page-break"

    func validate() throws {
        if forceTTS && noTTS { throw ValidationError("--tts and --no-tts contradict each other; give one of them") }
    }

    var planOptions: NarrationPlan.Options {
        NarrationPlan.Options(
            speakDocumentsWithoutNarration: !noTTS, forceTextToSpeech: forceTTS,
            skippedTypes: Set(skip.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }))
    }
}
