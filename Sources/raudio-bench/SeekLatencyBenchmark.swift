// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// `seek-latency AUDIO [--repeat 200] [--seed 1]`: the time of `seek(toFrame:)` plus the first `read`
/// of one output buffer, at random frames of an opened track, and whether those seeks are sample-exact.
/// AUDIO may be an `http(s)://` URL: the track is then streamed (`RemoteResource` over libcurl), and the
/// output adds the range requests and kilobytes of each timed seek (`CountingHTTPClient`).
///
/// The decoder is opened with `RAudioDecoderFactory`; for an MP3 without a length header the
/// background frame index is waited for first (`MPG123Decoder.waitForFrameIndex()`), since the target
/// is "once opened". An MP3 with one builds its index lazily: its first seeks parse frame headers up
/// to their targets, so the output also gives the first seek's time (`firstMs`). Exactness:
/// at a few of the random frames, the samples read after a seek must equal, bit for bit, those a
/// straight decode from the start gives at the same frame (streamed, so memory stays small).
struct SeekLatencyBenchmark {
    let path: String
    let repetitions: Int
    let seed: UInt64
    /// One render buffer: what the output asks for after a seek.
    static let bufferFrames = 4096
    static let exactnessChecks = 8

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("AUDIO file")
        repetitions = try arguments.integer("repeat", default: 200)
        seed = UInt64(try arguments.integer("seed", default: 1))
    }

    func run() throws(BenchmarkError) {
        let clock = ContinuousClock()
        let openStart = clock.now
        let decoder = try open()
        let opened = clock.now
        (decoder as? MPG123Decoder)?.waitForFrameIndex()
        guard let frameCount = decoder.frameCount, frameCount > Int64(Self.bufferFrames) else {
            throw .failed("\(path): unknown or too short length (\(decoder.frameCount.map(String.init) ?? "unknown") frames)")
        }
        // A remote MP3 is measured once its index exists, as before lazy indexing: a seek to its end parses
        // every frame header (one pass over the file); its time is the "frame index" figure.
        if decoder is MPG123Decoder, Href.isRemote(path) {
            do {
                try decoder.seek(toFrame: frameCount - Int64(Self.bufferFrames))
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: Self.bufferFrames * decoder.format.channelCount)
                defer { scratch.deallocate() }
                _ = try decoder.read(into: scratch, maxFrames: Self.bufferFrames)
            } catch {
                throw .failed("\(path): indexing its frames: \(error)")
            }
        }
        let indexed = clock.now
        var random = SplitMix64(seed: seed)
        let limit = UInt64(frameCount) - UInt64(Self.bufferFrames)
        let targets = (0..<repetitions).map { _ in Int64(random.next() % limit) }
        let channels = decoder.format.channelCount
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: Self.bufferFrames * channels)
        defer { buffer.deallocate() }
        var timings: [Double] = []
        // For a remote track: the requests and bytes of each seek, counted from its start to the next
        // seek's (what its read-ahead fetched in between included), and the wall-clock window of the
        // timed seeks, to find them in a server's access log.
        var requestsPerSeek: [Double] = []
        var kilobytesPerSeek: [Double] = []
        var counted = Self.counter.totals
        let windowStart = Date().timeIntervalSince1970
        for target in targets {
            let now = Self.counter.totals
            if !timings.isEmpty {
                requestsPerSeek.append(Double(now.requests - counted.requests))
                kilobytesPerSeek.append(Double(now.bytes - counted.bytes) / 1000)
            }
            counted = now
            let start = clock.now
            do {
                try decoder.seek(toFrame: target)
                _ = try decoder.read(into: buffer, maxFrames: Self.bufferFrames)
            } catch {
                throw .failed("\(path): at frame \(target): \(error)")
            }
            timings.append((clock.now - start).milliseconds)
        }
        let windowEnd = Date().timeIntervalSince1970
        let last = Self.counter.totals
        if !timings.isEmpty {
            requestsPerSeek.append(Double(last.requests - counted.requests))
            kilobytesPerSeek.append(Double(last.bytes - counted.bytes) / 1000)
        }
        let checkpoints = Array(targets.prefix(Self.exactnessChecks - 1)) + [limit > 0 ? Int64(limit) : 0]
        let exactness = try SeekExactness.check(decoder: decoder, checkpoints: checkpoints, frames: Self.bufferFrames) {
            () throws(BenchmarkError) in try open()
        }
        var object: JSONObject = [
            "measurement": "seek-latency",
            "file": .string(path),
            "format": .string(decoder.format.description),
            "frames": .integer(frameCount),
            "openMs": .number(of: (opened - openStart).milliseconds),
            "indexMs": .number(of: (indexed - opened).milliseconds),
            "bufferFrames": .integer(Int64(Self.bufferFrames)),
            "ms": Statistics(timings).json,
            "firstMs": .number(of: timings.first ?? 0),
            "exactChecked": .integer(Int64(checkpoints.count)),
            "exactMismatches": .integer(Int64(exactness.mismatches)),
            "sampleExact": .bool(exactness.mismatches == 0),
        ]
        if Href.isRemote(path) {
            object["requestsPerSeek"] = Statistics(requestsPerSeek).json
            object["requestsPerSeekMean"] = .number(of: requestsPerSeek.reduce(0, +) / Double(max(1, requestsPerSeek.count)))
            object["kilobytesPerSeek"] = Statistics(kilobytesPerSeek).json
            object["seekWindowEpoch"] = [.number(of: windowStart), .number(of: windowEnd)]
            object["processRequests"] = .integer(Int64(Self.counter.totals.requests))
        }
        BenchmarkRunner.emit(object)
    }

    /// One HTTP client for every opening of a remote track, as in a player; counted.
    private static let counter = CountingHTTPClient(CurlHTTPClient())
    private static let remoteAccess = RemoteAccess(client: counter)

    private func open() throws(BenchmarkError) -> any AudioDecoder {
        let resource: any Resource = Href.isRemote(path)
            ? Self.remoteAccess.resource(url: path) : FileResource(url: URL(fileURLWithPath: path))
        do {
            return try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
        } catch {
            throw .failed("\(error)")
        }
    }
}

/// A small deterministic random generator (SplitMix64), so every run seeks to the same frames.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
