// SPDX-License-Identifier: GPL-3.0-or-later
import CSonic

/// Raises or lowers the pitch of a whole utterance with libsonic, keeping its duration.
///
/// Piper voices have no pitch parameter; eSpeak NG's pitch setting is matched by shifting the output.
/// Wraps `sonicCreateStream`, `sonicSetPitch`, `sonicWriteFloatToStream`, `sonicFlushStream` and
/// `sonicReadFloatFromStream`. Runs on the Piper worker's thread.
enum PiperPitchShift {
    /// `samples` (mono at `sampleRate`) with their pitch multiplied by `pitch`; unchanged at 1 or when
    /// sonic cannot make a stream. The length can differ from the input's by a few samples.
    static func apply(_ samples: [Float], pitch: Double, sampleRate: Int) -> [Float] {
        guard pitch != 1, pitch.isFinite, pitch > 0, !samples.isEmpty, let stream = sonicCreateStream(Int32(sampleRate), 1) else { return samples }
        defer { sonicDestroyStream(stream) }
        sonicSetPitch(stream, Float(pitch))
        var input = samples
        input.withUnsafeMutableBufferPointer { _ = sonicWriteFloatToStream(stream, $0.baseAddress, Int32($0.count)) }
        sonicFlushStream(stream)
        var output = [Float](repeating: 0, count: Int(sonicSamplesAvailable(stream)))
        let read = output.withUnsafeMutableBufferPointer { Int(sonicReadFloatFromStream(stream, $0.baseAddress, Int32($0.count))) }
        output.removeLast(output.count - max(0, read))
        return output
    }
}
