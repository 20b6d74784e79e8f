// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import ReadiumNavigator

/// The state of one `espeak_Synth` call, reached from the C callback through `user_data`.
///
/// Lives on the eSpeak thread for the duration of one synthesis; the callback appends PCM into a
/// reserved array (one pass per buffer, no copy per sample) and feeds word events to the mapper.
final class ESpeakSynthesis {
    var samples: [Float]
    var mapper: TTSWordBoundaryMapper
    let scale: Float
    let cancellation: TTSCancellation
    let onChunk: (@Sendable (TTSAudioChunk) -> Void)?
    /// The format of the PCM, told in every chunk so that a consumer can play it before the end.
    let format: PCMFormat
    private(set) var wasCancelled = false
    /// The text eSpeak NG was given when parts are phonemes: its word positions are turned into the original's.
    var textPositions: ESpeakPhonemeText?

    init(text: String, expectedFrames: Int, volume: Double, format: PCMFormat, cancellation: TTSCancellation, onChunk: (@Sendable (TTSAudioChunk) -> Void)?) {
        // A buffer an earlier utterance played from, when there is one: no fresh memory to fault in.
        samples = PCMSampleBufferPool.speech.take(minimumCapacity: expectedFrames)
        mapper = TTSWordBoundaryMapper(text: text)
        scale = Float(max(0, volume)) / 32768
        self.cancellation = cancellation
        self.onChunk = onChunk
        self.format = format
    }

    /// Handles one callback: events first (their `sample` field is the exact frame in this call's
    /// output), then the samples. Returns 1 to make eSpeak stop (cancelled), else 0.
    func receive(samples wav: UnsafeMutablePointer<Int16>?, count: Int, events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
        if var event = events {
            while event.pointee.type != espeakEVENT_LIST_TERMINATED {
                if event.pointee.type == espeakEVENT_WORD, event.pointee.text_position > 0 {
                    let position = Int(event.pointee.text_position) - 1
                    mapper.addEvent(scalarOffset: textPositions?.originalScalarOffset(position) ?? position, frame: Int64(max(0, event.pointee.sample)))
                }
                event += 1
            }
        }
        let firstNew = samples.count
        if let wav, count > 0 {
            // Converted in place in one loop the compiler vectorizes (a lazy map appended element by
            // element cost more than the rest of the callback).
            let scale = scale
            samples.append(contentsOf: repeatElement(0, count: count))
            samples.withUnsafeMutableBufferPointer { buffer in
                let destination = UnsafeMutableBufferPointer(rebasing: buffer[firstNew...])
                for index in 0..<count { destination[index] = Float(wav[index]) * scale }
            }
        }
        if let onChunk, samples.count > firstNew {
            onChunk(TTSAudioChunk(samples: Array(samples[firstNew...]), startFrame: Int64(firstNew), wordBoundaries: mapper.takeSettled(), format: format))
        }
        if cancellation.isCancelled {
            wasCancelled = true
            return 1
        }
        return 0
    }
}

/// eSpeak NG's synthesis callback (`espeak_SetSynthCallback`); runs on the eSpeak thread inside
/// `espeak_Synth`. The `ESpeakSynthesis` comes through every event's `user_data`.
func eSpeakSynthesisCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let userData = events?.pointee.user_data else { return 0 }
    let synthesis = Unmanaged<ESpeakSynthesis>.fromOpaque(userData).takeUnretainedValue()
    return synthesis.receive(samples: wav, count: Int(count), events: events)
}
