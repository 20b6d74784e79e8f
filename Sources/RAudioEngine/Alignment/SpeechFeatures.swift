// SPDX-License-Identifier: GPL-3.0-or-later
import CFFTW
import Foundation
import ReadiumNavigator
import ReadiumShared

/// The acoustic features `raudio align` compares: 7 mel-frequency cepstral coefficients (c1 to c7: the spectrum's
/// broad shape, which a narrator and eSpeak NG share more than its detail) and the log energy of each 25 ms frame of
/// 16 kHz mono audio, every 10 ms (100 frames a second). Compared by their angle (`DynamicTimeWarping.distance`):
/// on a human narration of Moby-Dick, c1-c7 by angle located the text where c1-c12 by Euclidean distance did not.
public struct SpeechFeatures: Sendable {
    /// Coefficients per frame in `values`.
    public static let dimensions = 7
    public static let sampleRate = 16_000
    public static let hop = 160
    public static let framesPerSecond = Double(sampleRate) / Double(hop)

    /// `count * dimensions` coefficients, frame after frame; normalized to zero mean and unit variance per
    /// dimension over the whole stream (`normalize()`), which takes away most of the voice and the room, then each
    /// frame to unit length.
    public var values: [Float]
    /// The log energy of each frame (natural log of the mean square, floored), for finding pauses.
    public var energy: [Float]

    public init(values: [Float] = [], energy: [Float] = []) {
        self.values = values
        self.energy = energy
    }

    public var count: Int { energy.count }
    public var seconds: Double { Double(count) / Self.framesPerSecond }

    public static func frame(atSeconds seconds: Double) -> Int { Int((seconds * framesPerSecond).rounded()) }
    public static func seconds(ofFrame frame: Int) -> Double { Double(frame) / framesPerSecond }

    public mutating func append(_ other: SpeechFeatures) {
        values += other.values
        energy += other.energy
    }

    /// Frames `range` of these features.
    public func slice(_ range: Range<Int>) -> SpeechFeatures {
        let lower = max(0, min(range.lowerBound, count)), upper = max(lower, min(range.upperBound, count))
        return SpeechFeatures(values: Array(values[(lower * Self.dimensions)..<(upper * Self.dimensions)]), energy: Array(energy[lower..<upper]))
    }

    /// Cepstral mean and variance normalization over every frame, each dimension on its own.
    public mutating func normalize() {
        let dimensions = Self.dimensions
        guard count > 1 else { return }
        var mean = [Double](repeating: 0, count: dimensions), square = [Double](repeating: 0, count: dimensions)
        for frame in 0..<count {
            for dimension in 0..<dimensions {
                let value = Double(values[frame * dimensions + dimension])
                mean[dimension] += value
                square[dimension] += value * value
            }
        }
        let total = Double(count)
        var scale = [Float](repeating: 1, count: dimensions), shift = [Float](repeating: 0, count: dimensions)
        for dimension in 0..<dimensions {
            let average = mean[dimension] / total
            let variance = max(square[dimension] / total - average * average, 1e-8)
            shift[dimension] = Float(average)
            scale[dimension] = Float(1 / variance.squareRoot())
        }
        let frames = count
        values.withUnsafeMutableBufferPointer { buffer in
            for frame in 0..<frames {
                for dimension in 0..<dimensions {
                    let index = frame * dimensions + dimension
                    buffer[index] = (buffer[index] - shift[dimension]) * scale[dimension]
                }
            }
        }
        values.withUnsafeMutableBufferPointer { Self.unitLength($0) }
    }

    /// Each frame of `buffer` scaled to unit length (a zero frame stays zero).
    static func unitLength(_ buffer: UnsafeMutableBufferPointer<Float>) {
        let dimensions = Self.dimensions
        for frame in 0..<(buffer.count / dimensions) {
            var sum: Float = 0
            for dimension in 0..<dimensions { sum += buffer[frame * dimensions + dimension] * buffer[frame * dimensions + dimension] }
            guard sum > 0 else { continue }
            let scale = 1 / sum.squareRoot()
            for dimension in 0..<dimensions { buffer[frame * dimensions + dimension] *= scale }
        }
    }

    /// Every `factor` frames averaged into one (the last, shorter group too), at unit length: the coarse levels of the warping.
    public func downsampled(by factor: Int) -> SpeechFeatures {
        guard factor > 1 else { return self }
        let dimensions = Self.dimensions
        let groups = (count + factor - 1) / factor
        var out = [Float](repeating: 0, count: groups * dimensions)
        var outEnergy = [Float](repeating: 0, count: groups)
        for group in 0..<groups {
            let lower = group * factor, upper = min(count, lower + factor)
            let weight = 1 / Float(upper - lower)
            for frame in lower..<upper {
                for dimension in 0..<dimensions { out[group * dimensions + dimension] += values[frame * dimensions + dimension] * weight }
                outEnergy[group] += energy[frame] * weight
            }
        }
        out.withUnsafeMutableBufferPointer { Self.unitLength($0) }
        return SpeechFeatures(values: out, energy: outEnergy)
    }
}

/// Computes `SpeechFeatures` from 16 kHz mono samples pushed in any pieces: pre-emphasis, a Hamming window, a
/// 512-point real FFT (FFTW, single precision), 40 triangular mel filters from 60 to 7,600 Hz, their log, and a
/// DCT-II. Not thread-safe; one per stream.
public final class SpeechFeatureExtractor {
    static let window = 400
    static let fftSize = 512
    static let melBands = 40
    /// FFTW's planner is not thread-safe: plans are made and destroyed under this lock.
    private static let plannerLock = NSLock()

    private let plan: fftwf_plan
    private let input: UnsafeMutablePointer<Float>
    private let spectrum: UnsafeMutableRawPointer
    private let hamming: [Float]
    /// `melBands` filters, each as (first bin, weights).
    private let filters: [(first: Int, weights: [Float])]
    /// DCT-II rows 1 to `SpeechFeatures.dimensions` over the log mel energies.
    private let dct: [Float]
    /// Samples not yet consumed by a whole frame (after pre-emphasis).
    private var pending: [Float] = []
    private var previousSample: Float = 0
    public private(set) var features = SpeechFeatures()

    public init() {
        input = .allocate(capacity: Self.fftSize)
        input.initialize(repeating: 0, count: Self.fftSize)
        let bins = Self.fftSize / 2 + 1
        spectrum = UnsafeMutableRawPointer(fftwf_malloc(MemoryLayout<fftwf_complex>.stride * bins)!)
        Self.plannerLock.lock()
        plan = fftwf_plan_dft_r2c_1d(Int32(Self.fftSize), input, spectrum.assumingMemoryBound(to: fftwf_complex.self), UInt32(FFTW_ESTIMATE))
        Self.plannerLock.unlock()
        hamming = (0..<Self.window).map { Float(0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(Self.window - 1))) }
        filters = Self.melFilters(bins: bins)
        var dct = [Float](repeating: 0, count: SpeechFeatures.dimensions * Self.melBands)
        for row in 0..<SpeechFeatures.dimensions {
            for band in 0..<Self.melBands {
                dct[row * Self.melBands + band] = Float(cos(Double.pi * Double(row + 1) * (Double(band) + 0.5) / Double(Self.melBands)))
            }
        }
        self.dct = dct
        pending.reserveCapacity(4096)
    }

    deinit {
        Self.plannerLock.lock()
        fftwf_destroy_plan(plan)
        Self.plannerLock.unlock()
        fftwf_free(spectrum)
        input.deallocate()
    }

    static func mel(_ hertz: Double) -> Double { 2595 * log10(1 + hertz / 700) }
    static func hertz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }

    private static func melFilters(bins: Int) -> [(first: Int, weights: [Float])] {
        let low = mel(60), high = mel(7_600)
        let edges = (0..<(melBands + 2)).map { hertz(low + (high - low) * Double($0) / Double(melBands + 1)) }
        let binHertz = Double(SpeechFeatures.sampleRate) / Double(fftSize)
        return (0..<melBands).map { band in
            let left = edges[band], center = edges[band + 1], right = edges[band + 2]
            let first = max(0, Int((left / binHertz).rounded(.up)))
            let last = min(bins - 1, Int((right / binHertz).rounded(.down)))
            var weights: [Float] = []
            if first <= last {
                for bin in first...last {
                    let frequency = Double(bin) * binHertz
                    let weight = frequency <= center ? (frequency - left) / (center - left) : (right - frequency) / (right - center)
                    weights.append(Float(max(0, weight)))
                }
            }
            return (first, weights)
        }
    }

    /// Adds samples (16 kHz mono) and computes every frame they complete.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        for sample in samples {
            pending.append(sample - 0.97 * previousSample)
            previousSample = sample
        }
        var start = 0
        while pending.count - start >= Self.window {
            computeFrame(at: start)
            start += SpeechFeatures.hop
        }
        if start > 0 { pending.removeFirst(start) }
    }

    public func push(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { push($0) }
    }

    /// The features of everything pushed (a last partial frame padded with silence), not yet normalized.
    public func finish() -> SpeechFeatures {
        if !pending.isEmpty {
            let needed = Self.window - pending.count
            if needed > 0 { pending += [Float](repeating: 0, count: needed) }
            computeFrame(at: 0)
            pending.removeAll()
        }
        return features
    }

    private func computeFrame(at start: Int) {
        var energySum: Float = 0
        pending.withUnsafeBufferPointer { samples in
            for index in 0..<Self.window {
                let value = samples[start + index]
                energySum += value * value
                input[index] = value * hamming[index]
            }
        }
        for index in Self.window..<Self.fftSize { input[index] = 0 }
        fftwf_execute(plan)
        let complex = spectrum.assumingMemoryBound(to: Float.self)
        var logMel = [Float](repeating: 0, count: Self.melBands)
        for (band, filter) in filters.enumerated() {
            var sum: Float = 0
            for (offset, weight) in filter.weights.enumerated() {
                let bin = filter.first + offset
                let real = complex[2 * bin], imaginary = complex[2 * bin + 1]
                sum += weight * (real * real + imaginary * imaginary)
            }
            logMel[band] = log(max(sum, 1e-8))
        }
        for row in 0..<SpeechFeatures.dimensions {
            var value: Float = 0
            for band in 0..<Self.melBands { value += dct[row * Self.melBands + band] * logMel[band] }
            features.values.append(value)
        }
        features.energy.append(log(max(energySum / Float(Self.window), 1e-10)))
    }
}

/// Reads audio into `SpeechFeatures`: decoded by the engine's decoders, mixed to mono and resampled to 16 kHz
/// with libsoxr. Blocking; call it from a thread that may block.
public enum SpeechFeatureReader {
    /// The features of everything `decoder` gives from where it is; `progress` gets the seconds read so far now and then.
    /// Throws what the decoder throws, except damage after some audio decoded (kept, as playback does).
    public static func features(of decoder: any AudioDecoder, progress: (Double) -> Void = { _ in }) throws -> SpeechFeatures {
        let format = decoder.format
        let target = PCMFormat(sampleRate: SpeechFeatures.sampleRate, channelCount: 1)
        let resampler = try SoxrResampler(from: format, to: target)
        let extractor = SpeechFeatureExtractor()
        let chunk = 16_384
        var buffer = [Float](repeating: 0, count: chunk * max(1, format.channelCount))
        var output = [Float](repeating: 0, count: chunk * 4 + 1024)
        var framesRead: Int64 = 0
        func drain() {
            while resampler.availableFrames > 0 {
                let pulled = output.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
                if pulled == 0 { break }
                output.withUnsafeBufferPointer { extractor.push(UnsafeBufferPointer(rebasing: $0[0..<pulled])) }
            }
        }
        while true {
            let result: Result<Int, AudioDecoderError> = buffer.withUnsafeMutableBufferPointer { pointer in
                Result { () throws(AudioDecoderError) in try decoder.read(into: pointer.baseAddress!, maxFrames: chunk) }
            }
            var frames = 0
            switch result {
            case .success(let count):
                frames = count
            case .failure(let error):
                // Damage after some audio: what decoded is kept, as playback does.
                guard error.code == .corrupt, framesRead > 0 else { throw error }
            }
            if frames == 0 { break }
            framesRead += Int64(frames)
            buffer.withUnsafeBufferPointer { resampler.push(UnsafeBufferPointer(rebasing: $0[0..<(frames * format.channelCount)])) }
            drain()
            if framesRead % (Int64(chunk) * 64) < Int64(chunk) { progress(format.seconds(ofFrames: framesRead)) }
        }
        resampler.flush()
        drain()
        return extractor.finish()
    }

    /// The features of `samples` in `format` (a synthesized sentence).
    public static func features(of samples: [Float], format: PCMFormat) throws -> SpeechFeatures {
        let decoder = PCMBufferDecoder(samples: samples, format: format, href: "reference")
        return try features(of: decoder)
    }
}
