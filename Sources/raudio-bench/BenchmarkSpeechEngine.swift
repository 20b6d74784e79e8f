// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator

/// The speech engine a speech benchmark speaks with: eSpeak NG with the shipped presets, or with
/// `--voice piper:NAME` that Piper voice (its worker started and the model loaded) with eSpeak NG for
/// other languages, as `raudio speak --voice piper:NAME` makes it.
enum BenchmarkSpeechEngine {
    /// Starts loading the Piper voice `voice` names, as `raudio speak --voice piper:NAME` does first thing
    /// (nil for another voice or when it cannot start; `make` then loads it or says why). Its inference
    /// threads wait as for live playback (`PiperInferencePace.live`, sleeping), what a listener gets, even
    /// though the benchmarks write to the null output.
    static func startLoading(voice: String?) -> PiperVoiceLoad? {
        guard let voice, voice.lowercased().hasPrefix(PiperVoiceFile.identifierPrefix), let runtime = PiperRuntime.find(),
              let file = PiperVoiceCatalog(voicePaths: [], runtime: runtime).voice(named: voice) else { return nil }
        return try? PiperVoiceLoad(voice: file, runtime: runtime, pace: .live)
    }

    /// The engine and the voice identifier to configure the synthesizer with (nil for eSpeak NG's default);
    /// `started`: the voice already loading.
    static func make(voice: String?, started: PiperVoiceLoad? = nil) throws(BenchmarkError) -> (engine: any TTSEngine, voice: String?) {
        let espeak: ESpeakEngine
        do {
            espeak = try ESpeakEngine(presets: VoicePresets.load().presets)
        } catch {
            throw .failed("eSpeak NG: \(error.message)")
        }
        guard let voice else { return (espeak, nil) }
        do {
            let piper: PiperEngine
            if let started { piper = try started.engine() } else { piper = try PiperEngine.load(named: voice) }
            return (SpeechEngineRouter(neural: piper, fallback: espeak), piper.availableVoices[0].identifier)
        } catch {
            throw .failed("Piper voice \(voice): \(error.message)")
        }
    }
}
