// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared

/// Makes the speech engine `raudio speak` asked for: eSpeak NG alone, or a Piper voice with eSpeak NG
/// for the spans in other languages (`SpeechEngineRouter`); with `jobs` > 1, eSpeak NG speaks in that many
/// worker processes (`ESpeakWorkerPool`).
///
/// Loading a Piper voice starts its worker and waits for the model (about a second). Errors become the
/// documented exit codes: an unknown Piper voice 64, a broken model or config 65 (naming the file),
/// no Piper runtime 69.
enum SpeechEngineSetup {
    /// Starts loading the Piper voice `voice` names (`piper:NAME`) when it is installed, without waiting:
    /// called first thing, so that the model loads while the book opens. Nil for any other voice, or
    /// when it cannot start (`make` then reports why). `pace`: live playback or rendering faster than real time.
    static func startLoading(voice: String?, options: SpeechEngineOptions, pace: PiperInferencePace) -> PiperVoiceLoad? {
        guard let voice, voice.lowercased().hasPrefix(PiperVoiceFile.identifierPrefix), let runtime = PiperRuntime.find(),
              let file = PiperVoiceCatalog(voicePaths: options.voicePathURLs, runtime: runtime).voice(named: voice) else { return nil }
        return try? PiperVoiceLoad(voice: file, runtime: runtime, environment: workerEnvironment(pace: pace), pace: pace)
    }

    /// What a Piper worker is given beside raudio's environment: a render's speaks without the model's random
    /// noise, so that two renders of a book write the same bytes (its speech a little more even than `raudio
    /// speak`'s; docs/render.md).
    static func workerEnvironment(pace: PiperInferencePace) -> [String: String] {
        pace == .rendering ? ["RAUDIO_PIPER_DETERMINISTIC": "1"] : [:]
    }

    /// Stops `engine`'s eSpeak NG worker processes, if it has any (`--jobs`), so they end (and are
    /// reaped) before raudio does. They would end anyway once raudio exits and their stdin closes.
    static func stopWorkers(of engine: any TTSEngine) {
        if let pool = engine as? ESpeakWorkerPool {
            pool.close()
        } else if let router = engine as? SpeechEngineRouter, let pool = router.fallback as? ESpeakWorkerPool {
            pool.close()
        }
    }

    /// The engine; `started` is a Piper voice already loading (`startLoading`), used when it is the one
    /// chosen; `jobs` > 1 synthesizes eSpeak NG in that many worker processes (`--jobs`); `pace` is that of a
    /// Piper voice loaded here; `inWorkerProcesses` puts eSpeak NG in worker processes even for one job (`raudio render`,
    /// which starts a fresh one for each block of utterances).
    static func make(presets: VoicePresets, presetsFolder: URL? = nil, options: SpeechEngineOptions, voice: String?, bookLanguage: Language?,
                     jobs: Int = 1, inWorkerProcesses: Bool = false, started: PiperVoiceLoad? = nil,
                     pace: PiperInferencePace = .live) throws(CommandFailure) -> any TTSEngine {
        let espeak: any TTSEngine
        do {
            if jobs > 1 || inWorkerProcesses {
                espeak = try ESpeakWorkerPool(presets: presets, presetsFolder: presetsFolder, workerCount: jobs)
            } else {
                espeak = try ESpeakEngine(presets: presets)
            }
        } catch {
            throw CommandFailure(error, message: error.message)
        }
        let wantsPiperVoice = voice?.lowercased().hasPrefix(PiperVoiceFile.identifierPrefix) == true
        guard wantsPiperVoice || options.engine == .piper else { return espeak }
        let runtime = PiperRuntime.find()
        let catalog = PiperVoiceCatalog(voicePaths: options.voicePathURLs, runtime: runtime)
        let file: PiperVoiceFile
        if wantsPiperVoice, let voice {
            guard let found = catalog.voice(named: voice) else {
                if let problem = catalog.problems.first(where: { $0.message.contains("/\(voice.dropFirst(PiperVoiceFile.identifierPrefix.count)).onnx") }) {
                    throw CommandFailure(problem, message: "--voice \(voice): \(problem.message)")
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
            throw CommandFailure(PiperError(.workerUnavailable, message: "\(file.identifier): Piper is not installed: \(PiperRuntime.installHint)"))
        }
        do {
            let piper: PiperEngine
            if let started, started.voiceFile == file {
                piper = try started.engine()
            } else {
                piper = try PiperEngine(voice: file, runtime: runtime, environment: workerEnvironment(pace: pace), pace: pace)
            }
            return SpeechEngineRouter(neural: piper, fallback: espeak)
        } catch {
            throw CommandFailure(error, message: error.message)
        }
    }
}
