// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import ReadiumNavigator
import ReadiumShared

/// One utterance ready for eSpeak NG: the voice and the absolute rate, pitch and volume.
///
/// `run` wraps `espeak_SetVoiceByName`, `espeak_SetParameter` and `espeak_Synth`; it runs on the eSpeak
/// thread only.
struct ESpeakRequest: Sendable {
    var text: String
    var voice: TTSVoice
    var warning: String?
    var format: PCMFormat
    /// Words per minute, `espeakRATE`.
    var rate: Int
    /// 0-100, `espeakPITCH`.
    var pitch: Int
    /// Multiplies the samples.
    var volume: Double
    /// Parts of `text` spoken as phonemes (IPA), UTF-8 offsets of `text`.
    var phonemes: [PhonemeSpan] = []

    /// The voice eSpeak has loaded, so consecutive utterances in one voice skip the ~4 ms reload.
    private static let loadedVoice = Locked<String?>(nil)

    /// Synthesizes the utterance; with `onPhonemeTrace`, eSpeak NG's own trace of the phonemes it spoke (its
    /// mnemonics, `_` between phonemes, a space between words, a line per clause: `espeak_SetPhonemeTrace`) is
    /// handed to it before the result is returned.
    func run(cancellation: TTSCancellation, onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
             onPhonemeTrace: ((String) -> Void)? = nil) -> Result<SynthesizedUtterance, TTSError> {
        guard !cancellation.isCancelled else { return .failure(cancelledError) }
        let loading = Self.loadVoice(voice.identifier)
        guard loading == EE_OK else {
            return .failure(TTSError(.synthesisFailed, message: "eSpeak NG could not load voice \"\(voice.identifier)\" (espeak_SetVoiceByName)", underlyingStatus: loading.rawValue))
        }
        espeak_SetParameter(espeakRATE, Int32(rate), 0)
        espeak_SetParameter(espeakPITCH, Int32(pitch), 0)
        espeak_SetParameter(espeakVOLUME, 100, 0)

        // A NUL would end the C string early; a space keeps every scalar offset in place.
        let spoken = text.contains("\0") ? String(text.map { $0 == "\0" ? " " : $0 }) : text
        let phonemeText = ESpeakPhonemeText(text: spoken, phonemes: phonemes, languageCode: voice.language.code)
        let synthesized = phonemeText.text
        // About 70 ms of audio per character at 160 words per minute, scaled by the rate.
        let expectedFrames = max(4096, synthesized.unicodeScalars.count * format.sampleRate * 70 / 1000 * 160 / max(rate, 1))
        let synthesis = ESpeakSynthesis(text: spoken, expectedFrames: expectedFrames, volume: volume, format: format, cancellation: cancellation, onChunk: onChunk)
        if phonemeText.originalScalarOffsets != nil { synthesis.textPositions = phonemeText }
        var flags = UInt32(espeakCHARS_UTF8) | UInt32(espeakENDPAUSE)
        if phonemeText.hasPhonemes { flags |= UInt32(espeakPHONEMES) }
        let trace = onPhonemeTrace.map { _ in ESpeakPhonemeTrace() }
        let status = withExtendedLifetime(synthesis) {
            synthesized.withCString { pointer in
                espeak_Synth(
                    pointer, synthesized.utf8.count + 1, 0, POS_CHARACTER, 0,
                    flags, nil,
                    Unmanaged.passUnretained(synthesis).toOpaque()
                )
            }
        }
        if let trace, let onPhonemeTrace {
            // eSpeak NG writes the trace of a text's last clause only when it next translates text: an empty
            // clause, whose audio goes nowhere (no user data), gets it out.
            _ = " ".withCString { espeak_Synth($0, 2, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil) }
            onPhonemeTrace(trace.finish())
        }
        if synthesis.wasCancelled || cancellation.isCancelled { return .failure(cancelledError) }
        guard status == EE_OK else {
            return .failure(TTSError(.synthesisFailed, message: "eSpeak NG failed to speak \"\(text.prefix(40))\" with voice \(voice.identifier) (espeak_Synth)", underlyingStatus: status.rawValue))
        }
        let frameCount = Int64(synthesis.samples.count)
        let unmapped = phonemeText.unmapped.isEmpty ? nil
            : "eSpeak NG has no phonemes for " + phonemeText.unmapped.map { "/\($0)/" }.joined(separator: ", ") + " (voice \(voice.identifier)); spoken as written"
        return .success(SynthesizedUtterance(
            text: text, voice: voice, warning: [warning, unmapped].compactMap { $0 }.joined(separator: "; ").nilIfEmpty, format: format,
            samples: synthesis.samples, wordBoundaries: synthesis.mapper.finish(frameCount: frameCount)
        ))
    }

    /// Loads the voice `identifier` into eSpeak NG unless it is the one loaded already
    /// (`espeak_SetVoiceByName`); eSpeak thread only. `ESpeakEngine.prepare` calls it ahead of the first
    /// utterance, `run` before each.
    /// The voice eSpeak NG has loaded (for tests; read it on the eSpeak thread).
    static var loadedVoiceIdentifier: String? { loadedVoice.withLock { $0 } }

    static func loadVoice(_ identifier: String) -> espeak_ERROR {
        guard loadedVoice.withLock({ $0 }) != identifier else { return EE_OK }
        let status = espeak_SetVoiceByName(identifier)
        loadedVoice.withLock { $0 = status == EE_OK ? identifier : nil }
        return status
    }

    private var cancelledError: TTSError {
        TTSError(.cancelled, message: "speaking \"\(text.prefix(40))\" was cancelled")
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
