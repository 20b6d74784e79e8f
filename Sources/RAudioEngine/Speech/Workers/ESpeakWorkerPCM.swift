// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// The PCM of a worker's answer: eSpeak NG's own 16-bit samples (the worker speaks at volume 1), half
/// the bytes Float32 took over the pipe; the reading side applies the utterance's volume as
/// `ESpeakSynthesis` does in one process, so the samples are the same.
///
/// Converted chunk by chunk through a buffer on the stack, in loops the compiler vectorizes. Pure
/// functions over the caller's descriptors: the worker's main thread writes, `ESpeakWorker`'s thread reads.
enum ESpeakWorkerPCM {
    /// Samples per chunk (32 KB of Int16).
    static let chunkSamples = 16_384

    /// Writes `samples` (eSpeak NG's Int16 samples divided by 32768: an utterance spoken at volume 1)
    /// as little-endian Int16 through `writeAll`; false when a write fails.
    static func write(_ samples: [Float], with writeAll: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        samples.withUnsafeBufferPointer { source in
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: chunkSamples) { chunk in
                var offset = 0
                while offset < source.count {
                    let count = min(chunkSamples, source.count - offset)
                    narrow(source.baseAddress! + offset, to: chunk.baseAddress!, count: count)
                    guard writeAll(UnsafeRawBufferPointer(start: chunk.baseAddress, count: count * 2)) else { return false }
                    offset += count
                }
                return true
            }
        }
    }

    /// Converts `count` samples with `int16`. Plain pointers and locals only: the loop the compiler
    /// vectorizes (inside the closures above it stayed scalar).
    static func narrow(_ source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Int16>, count: Int) {
        for index in 0..<count { destination[index] = int16(source[index]) }
    }

    /// `count` Int16 samples as Float32 times `scale`, as `narrow` a loop the compiler vectorizes.
    static func widen(_ source: UnsafePointer<Int16>, to destination: UnsafeMutablePointer<Float>, count: Int, scale: Float) {
        for index in 0..<count { destination[index] = Float(source[index]) * scale }
    }

    /// `sample * 32768` as Int16 (exact for eSpeak NG's samples; clamped to the 16-bit range), in a form
    /// the compiler vectorizes (`int16(wholeNumber:)`).
    @inline(__always)
    static func int16(_ sample: Float) -> Int16 {
        RAudioEngine.int16(wholeNumber: min(max(sample * 32768, -32768), 32767))
    }
}

extension PiperPipeReader {
    /// Exactly `count` little-endian Int16 samples, as Float32 times `volume` / 32768 (as eSpeak NG's
    /// callback converts them in one process), or nil when the pipe ends first. The samples go into a
    /// buffer of `PCMSampleBufferPool.speech`.
    func readPCM16Samples(_ count: Int, volume: Double) -> [Float]? {
        let scale = Float(max(0, volume)) / 32768
        var samples = PCMSampleBufferPool.speech.take(minimumCapacity: count)
        // Widened into a chunk on the stack and appended from there: appending `count` zeros first
        // (generic, element by element) cost more than the conversion itself.
        let complete = withUnsafeTemporaryAllocation(of: Int16.self, capacity: ESpeakWorkerPCM.chunkSamples) { chunk -> Bool in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: ESpeakWorkerPCM.chunkSamples) { widened -> Bool in
                while samples.count < count {
                    let length = min(ESpeakWorkerPCM.chunkSamples, count - samples.count)
                    guard read(into: UnsafeMutableRawBufferPointer(start: chunk.baseAddress, count: length * 2)) else { return false }
                    ESpeakWorkerPCM.widen(chunk.baseAddress!, to: widened.baseAddress!, count: length, scale: scale)
                    samples.append(contentsOf: UnsafeBufferPointer(rebasing: widened[..<length]))
                }
                return true
            }
        }
        return complete ? samples : nil
    }
}

/// eSpeak NG's 16-bit samples kept as such outside the worker pipe (the render's speech cache), with the same
/// narrowing and widening as the pipe (`ESpeakWorkerPCM`), so that they come back as the same floats.
public enum SixteenBitSpeech {
    /// `samples` times 32768 as Int16, when widened again they are the same floats bit for bit (eSpeak NG's at
    /// volume 1); nil otherwise (Piper's samples, another volume, a -0).
    public static func exactValues(of samples: [Float]) -> [Int16]? {
        let values = [Int16](unsafeUninitializedCapacity: samples.count) { buffer, count in
            samples.withUnsafeBufferPointer { source in
                if let from = source.baseAddress { ESpeakWorkerPCM.narrow(from, to: buffer.baseAddress!, count: source.count) }
            }
            count = samples.count
        }
        let widened = values.withUnsafeBufferPointer { Self.samples(of: $0) }
        let same = widened.withUnsafeBytes { back in samples.withUnsafeBytes { back.elementsEqual($0) } }
        return same ? values : nil
    }

    /// `values` as Float32 over 32768.
    public static func samples(of values: UnsafeBufferPointer<Int16>) -> [Float] {
        [Float](unsafeUninitializedCapacity: values.count) { buffer, count in
            if let from = values.baseAddress { ESpeakWorkerPCM.widen(from, to: buffer.baseAddress!, count: values.count, scale: 1 / 32768) }
            count = values.count
        }
    }
}
