// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer

/// Which speech engine speaks, and where Piper voices are found (`raudio speak` and `raudio voices`).
struct SpeechEngineOptions: ParsableArguments {
    enum Engine: String, ExpressibleByArgument, CaseIterable, Sendable {
        case espeak
        case piper
    }

    @Option(help: ArgumentHelp("espeak, or piper: a neural Piper voice for the book's language when one is installed, eSpeak NG for the rest. A --voice piper:NAME implies piper.", valueName: "engine"))
    var engine: Engine = .espeak

    @Option(name: .customLong("voice-path"), help: ArgumentHelp("A folder of Piper voices (NAME.onnx with NAME.onnx.json), searched before $XDG_DATA_HOME/raudio/voices; repeatable.", valueName: "folder"))
    var voicePaths: [String] = []

    var voicePathURLs: [URL] { voicePaths.map { URL(fileURLWithPath: $0) } }
}
