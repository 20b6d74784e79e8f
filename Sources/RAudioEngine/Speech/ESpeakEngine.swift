// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import Foundation
import ReadiumNavigator
import ReadiumShared
import Synchronization

/// The eSpeak NG text-to-speech engine: voices, language fallbacks, and synthesis to Float32 PCM.
///
/// All eSpeak NG calls run on one process-wide thread (`ESpeakThread`, "raudio.espeak"), in
/// `AUDIO_OUTPUT_SYNCHRONOUS` mode, initialized once per process however many engines are made;
/// requests from any number of tasks are queued and served one at a time. Output is mono at eSpeak's
/// rate (22 050 Hz). Rate and pitch come from the `VoicePresets` times the utterance's multipliers;
/// volume is applied to the samples (eSpeak's own volume stays at 100).
public final class ESpeakEngine: TTSEngine {
    public let presets: VoicePresets
    public let availableVoices: [TTSVoice]
    /// The format of every utterance's PCM.
    public let format: PCMFormat
    private let thread: ESpeakThread

    /// Starts eSpeak NG (once per process) and lists its voices. Blocks the caller for a few
    /// milliseconds the first time: call it at start-up, not from a hot path.
    ///
    /// Throws `.libraryUnavailable` when libespeak-ng cannot be loaded (it is loaded here, the first time),
    /// `.engineUnavailable` when `espeak_Initialize` fails.
    public init(presets: VoicePresets) throws(TTSError) {
        thread = ESpeakThread.shared
        self.presets = presets
        format = PCMFormat(sampleRate: try thread.startup.get(), channelCount: 1)
        availableVoices = thread.voices
    }

    /// Starts eSpeak NG's thread, which loads the library, initializes it and lists the voices, and
    /// returns at once: called first thing by `raudio speak`, so that this happens on the eSpeak
    /// thread while the book opens; `init` then waits only for what is left of it. Any thread; a
    /// second call does nothing.
    public static func startInitializing() {
        _ = ESpeakThread.shared
    }

    /// How many times this process initialized eSpeak NG (1 after the first engine; for tests).
    public static var initializationCount: Int { ESpeakThread.initializationCount }

    public func voice(withIdentifier identifier: String) -> TTSVoice? {
        let identifier = identifier.lowercased()
        return availableVoices.first { $0.identifier == identifier }
    }

    public func synthesize(
        _ utterance: TTSUtterance,
        cancellation: TTSCancellation,
        onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        guard let (voice, warning, preset) = resolve(utterance.voiceOrLanguage) else {
            let identifier = if case .voice(let requested) = utterance.voiceOrLanguage { requested.identifier } else { "" }
            completion(.failure(TTSError(.ttsUnknownVoice, message: "no eSpeak NG voice \"\(identifier)\"")))
            return
        }
        let request = request(for: utterance, voice: voice, warning: warning, preset: preset)
        thread.enqueue {
            completion(request.run(cancellation: cancellation, onChunk: onChunk))
        }
    }

    private func request(for utterance: TTSUtterance, voice: TTSVoice, warning: String?, preset: VoicePreset) -> ESpeakRequest {
        ESpeakRequest(
            text: utterance.text, voice: voice, warning: warning, format: format,
            rate: Self.clamp(Double(preset.rate) * utterance.rate, VoicePreset.rateRange),
            pitch: Self.clamp(Double(preset.pitch) * utterance.pitch, VoicePreset.pitchRange),
            volume: utterance.volume, phonemes: utterance.phonemes
        )
    }

    /// Speaks `utterance` as `synthesize` does and returns, with the result, eSpeak NG's own trace of the phonemes
    /// it spoke (`espeak_SetPhonemeTrace`: its mnemonics, `_` between the phonemes of a word, a space between words,
    /// a line per clause). Blocks the calling thread; for tests and diagnostics.
    public func synthesizeTracingPhonemes(_ utterance: TTSUtterance) throws(TTSError) -> (utterance: SynthesizedUtterance, phonemeTrace: String) {
        guard let (voice, warning, preset) = resolve(utterance.voiceOrLanguage) else {
            throw TTSError(.ttsUnknownVoice, message: "no eSpeak NG voice for \(utterance.voiceOrLanguage)")
        }
        let request = request(for: utterance, voice: voice, warning: warning, preset: preset)
        let result = ResultBox<(Result<SynthesizedUtterance, TTSError>, String)>()
        let done = DispatchSemaphore(value: 0)
        thread.enqueue {
            let trace = Locked("")
            let outcome = request.run(cancellation: TTSCancellation(), onChunk: nil) { text in trace.withLock { $0 = text } }
            result.value.withLock { $0 = (outcome, trace.withLock { $0 }) }
            done.signal()
        }
        done.wait()
        let (outcome, trace) = result.value.withLock { $0! }
        return (try outcome.get(), trace)
    }

    /// Loads the voice `voiceOrLanguage` resolves to (as `synthesize` would) on the eSpeak thread, behind
    /// the jobs already queued, and returns at once: its ~4 ms load then overlaps the caller's work (the
    /// synthesizer finding its first utterance) instead of delaying the first audio. An unknown voice is
    /// left to `synthesize` to report. Any thread.
    public func prepare(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage) {
        guard let identifier = resolve(voiceOrLanguage)?.voice.identifier else { return }
        thread.enqueue { _ = ESpeakRequest.loadVoice(identifier) }
    }

    /// The voice an utterance asking for `voiceOrLanguage` is spoken with, the warning to give when a
    /// language falls back to another voice, and the preset of its rate and pitch; nil for a voice
    /// identifier eSpeak NG does not have. Any thread.
    private func resolve(_ voiceOrLanguage: TTSUtterance.VoiceOrLanguage) -> (voice: TTSVoice, warning: String?, preset: VoicePreset)? {
        switch voiceOrLanguage {
        case .voice(let requested):
            guard let known = voice(withIdentifier: requested.identifier) else { return nil }
            return (known, nil, prosodyPreset(for: known, language: nil))
        case .language(let language):
            let choice = voice(forLanguage: language)
            return (choice.voice, choice.warning, prosodyPreset(for: choice.voice, language: choice.isFallback ? nil : language))
        }
    }

    /// Synthesizes `utterance`, blocking the calling thread until done. For threads raudio owns
    /// (never the cooperative pool, never the eSpeak thread).
    public func synthesizeBlocking(_ utterance: TTSUtterance, cancellation: TTSCancellation = TTSCancellation()) throws(TTSError) -> SynthesizedUtterance {
        let result = ResultBox<Result<SynthesizedUtterance, TTSError>>()
        let done = DispatchSemaphore(value: 0)
        synthesize(utterance, cancellation: cancellation, onChunk: nil) { outcome in
            result.value.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.value.withLock { $0! }.get()
    }

    private static func clamp(_ value: Double, _ range: ClosedRange<Int>) -> Int {
        guard value.isFinite else { return range.lowerBound }
        return min(max(Int(value.rounded()), range.lowerBound), range.upperBound)
    }
}
