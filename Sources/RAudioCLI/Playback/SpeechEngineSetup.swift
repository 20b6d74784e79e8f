// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Makes the speech engine `raudio speak` asked for: eSpeak NG alone, or a Piper voice with eSpeak NG
/// for the spans in other languages (`SpeechEngineRouter`).
///
/// Loading a Piper voice starts its worker and waits for the model (about a second). Errors become the
/// documented exit codes: an unknown Piper voice 64, a broken model or config 65 (naming the file),
/// no Piper runtime 69.
enum SpeechEngineSetup {
    static func make(presets: VoicePresets, options: SpeechEngineOptions, voice: String?, bookLanguage: Language?) throws(CommandFailure) -> any TTSEngine {
        let espeak: ESpeakEngine
        do {
            espeak = try ESpeakEngine(presets: presets)
        } catch {
            throw CommandFailure(ExitStatus(speechEngineError: error), code: error.code.rawValue, message: error.message)
        }
        let wantsPiperVoice = voice?.lowercased().hasPrefix(PiperVoiceFile.identifierPrefix) == true
        guard wantsPiperVoice || options.engine == .piper else { return espeak }
        let runtime = PiperRuntime.find()
        let catalog = PiperVoiceCatalog(voicePaths: options.voicePathURLs, runtime: runtime)
        let file: PiperVoiceFile
        if wantsPiperVoice, let voice {
            guard let found = catalog.voice(named: voice) else {
                if let problem = catalog.problems.first(where: { $0.message.contains("/\(voice.dropFirst(PiperVoiceFile.identifierPrefix.count)).onnx") }) {
                    throw CommandFailure(.badData, code: problem.code.rawValue, message: "--voice \(voice): \(problem.message)")
                }
                let known = catalog.voices.map(\.identifier)
                throw CommandFailure(.usage, code: "unknown-voice", message: "--voice \(voice): no such Piper voice (see raudio voices)"
                                     + (known.isEmpty ? "; none is installed (\(PiperRuntime.installHint))" : ". Installed: \(known.joined(separator: ", "))"))
            }
            file = found
        } else {
            let language = voice.map(Language.init(code:)).flatMap { $0.isWellFormed ? $0 : nil } ?? bookLanguage ?? Language(code: "en")
            // The preset's neural voice for the language (or its base language) when installed, else the first
            // installed Piper voice speaking it.
            let preset = presets.preset(forLanguage: language) ?? presets.preset(forLanguage: Language(code: language.baseCode))
            guard let found = preset?.neuralVoice.flatMap(catalog.voice(named:)) ?? catalog.voice(for: language) else {
                StandardStreams.printError("raudio: warning: --engine piper: no Piper voice speaks \"\(language.code)\"; speaking with eSpeak NG")
                return espeak
            }
            file = found
        }
        guard let runtime else {
            throw CommandFailure(.serviceUnavailable, code: PiperError.Code.workerUnavailable.rawValue,
                                 message: "\(file.identifier): Piper is not installed: \(PiperRuntime.installHint)")
        }
        do {
            return SpeechEngineRouter(neural: try PiperEngine(voice: file, runtime: runtime), fallback: espeak)
        } catch {
            let status: ExitStatus = switch error.code {
            case .unknownVoice: .usage
            case .badVoice, .workerFailed: .badData
            case .workerUnavailable: .serviceUnavailable
            }
            throw CommandFailure(status, code: error.code.rawValue, message: error.message)
        }
    }
}
