// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// The Piper text-to-speech engine: one neural voice, spoken by a long-lived worker process.
///
/// `piper-tts` runs in `piper/worker.py` under the project's virtual environment; this engine sends it
/// one utterance at a time over pipes (`PiperWorker`) and turns the answer into PCM and word
/// boundaries, the words timed by the model's own phoneme durations (`PiperWordTiming`). Long sentences
/// come in pieces, each handed to `onChunk` as it arrives; the first utterance, and the first after a
/// cancelled one, starts with a short piece so that its first audio comes after one short inference.
/// Speed is the model's length scale, pitch a libsonic shift. Synthesis runs on the worker's thread
/// ("raudio.piper") and in the worker process, which takes the second core while the first plays.
public final class PiperEngine: TTSEngine {
    public let voiceFile: PiperVoiceFile
    public let availableVoices: [TTSVoice]
    /// The format of every utterance's PCM: mono at the voice's rate (22 050 Hz for medium voices).
    public let format: PCMFormat
    private let worker: PiperWorker

    /// The longest first piece, in phonemes (one to three words, cut at a word separator), of an utterance
    /// a listener waits for: its inference takes about half the time of 20 phonemes' (about 75 against
    /// 140 ms of CPU for the first words of Moby-Dick's last chapter), and the pieces after it grow fast
    /// enough to be ready before it has played.
    public static let defaultFirstPieceLimit = 12

    /// Starts the worker for `voice` and waits until it has loaded the model (about a second).
    ///
    /// `environment` is added to the worker's (`XDG_CACHE_HOME` for its model cache, in tests);
    /// `firstPieceLimit` nil gives no short first pieces; `pace`: live playback or rendering faster than
    /// real time (`PiperInferencePace`). Throws `.badVoice` naming the file when the
    /// model or config is truncated or not a Piper voice, `.workerUnavailable` when the Python runtime is
    /// missing. Blocks: call it at start-up.
    public convenience init(voice: PiperVoiceFile, runtime: PiperRuntime, environment: [String: String] = [:],
                            firstPieceLimit: Int? = PiperEngine.defaultFirstPieceLimit, pace: PiperInferencePace = .live) throws(PiperError) {
        try self.init(voice: voice, worker: PiperWorker(voice: voice, runtime: runtime, environment: environment,
                                                        firstPieceLimit: firstPieceLimit, pace: pace))
    }

    /// Waits until `worker`, started for `voice`, has loaded the model; closes it when it cannot.
    init(voice: PiperVoiceFile, worker: PiperWorker) throws(PiperError) {
        voiceFile = voice
        availableVoices = [voice.ttsVoice]
        self.worker = worker
        do {
            format = PCMFormat(sampleRate: try worker.waitUntilReady(), channelCount: 1)
        } catch {
            worker.close()
            throw error
        }
    }

    deinit { worker.close() }

    /// The worker process's id (for diagnostics and tests).
    public var workerProcessIdentifier: Int32 { worker.processIdentifier }

    /// Loads the voice named `name` (`en_US-joe-medium`, with or without `piper:`) from the catalog of
    /// `voicePaths`, `$XDG_DATA_HOME/raudio/voices` and the Piper environment.
    ///
    /// Throws `.workerUnavailable` without a Piper environment, `.piperUnknownVoice` when no voice has that
    /// name, `.badVoice` naming the file when it cannot be loaded. Blocks about a second.
    public static func load(named name: String, voicePaths: [URL] = []) throws(PiperError) -> PiperEngine {
        guard let runtime = PiperRuntime.find() else { throw PiperError(.workerUnavailable, message: "Piper is not installed: \(PiperRuntime.installHint)") }
        let catalog = PiperVoiceCatalog(voicePaths: voicePaths, runtime: runtime)
        guard let voice = catalog.voice(named: name) else {
            if let problem = catalog.problems.first { throw problem }
            throw PiperError(.piperUnknownVoice, message: "no Piper voice \"\(name)\" (see raudio voices)")
        }
        return try PiperEngine(voice: voice, runtime: runtime)
    }

    public func voice(withIdentifier identifier: String) -> TTSVoice? {
        availableVoices.first { $0.identifier.lowercased() == identifier.lowercased() }
    }

    public func voice(forLanguage language: Language) -> TTSVoiceChoice {
        let voice = availableVoices[0]
        if voice.language.code.lowercased() == language.code.lowercased() {
            return TTSVoiceChoice(voice: voice, requestedLanguage: language, match: .exact)
        }
        if voice.speaks(baseLanguageOf: language) {
            return TTSVoiceChoice(voice: voice, requestedLanguage: language, match: .baseLanguage)
        }
        return TTSVoiceChoice(voice: voice, requestedLanguage: language, match: .defaultVoice,
                              warning: "the Piper voice \(voice.identifier) does not speak \"\(language.code)\"; speaking it anyway")
    }

    public func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        let voice: TTSVoice
        var warning: String?
        switch utterance.voiceOrLanguage {
        case .voice(let requested):
            guard let known = self.voice(withIdentifier: requested.identifier) else {
                completion(.failure(TTSError(.ttsUnknownVoice, message: "no Piper voice \"\(requested.identifier)\"")))
                return
            }
            voice = known
        case .language(let language):
            let choice = self.voice(forLanguage: language)
            voice = choice.voice
            warning = choice.warning
        }
        let fallbackWarning = warning
        let rate = utterance.rate.isFinite && utterance.rate > 0 ? utterance.rate : 1
        let text = utterance.text
        let format = format
        let assembly = PiperUtteranceAssembly(text: text, pitch: utterance.pitch, format: format, onChunk: onChunk)
        let phonemes = PiperPhonemeSpan.spans(of: utterance.phonemes, in: text, languageCode: voice.language.code)
        worker.speak(text, phonemes: phonemes, speed: rate, volume: max(0, utterance.volume), isCancelled: { cancellation.isCancelled },
                     onMessage: { assembly.receive($0) }) { result in
            if cancellation.isCancelled {
                return completion(.failure(TTSError(.cancelled, message: "speaking \"\(text.prefix(40))\" was cancelled")))
            }
            switch result {
            case .failure(let error):
                completion(.failure(TTSError(.synthesisFailed, message: error.message)))
            case .success:
                let (samples, boundaries) = assembly.finish()
                completion(.success(SynthesizedUtterance(text: text, voice: voice, warning: fallbackWarning, format: format,
                                                         samples: samples, wordBoundaries: boundaries)))
            }
        }
    }
}
