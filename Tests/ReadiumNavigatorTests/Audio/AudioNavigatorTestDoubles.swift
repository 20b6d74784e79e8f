// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumNavigator

/// A decoder of `frameCount` frames whose samples encode their own index (frame / 1e6), so the
/// sink can check that nothing is dropped, repeated or reordered. Fails with `.corrupt` at
/// `corruptAt` when given, or as a remote track whose server cannot be reached (`unreachable`).
final class CountingDecoder: AudioDecoder {
    let format: PCMFormat
    let total: Int64
    let corruptAt: Int64?
    let unreachable: Bool
    let href: String
    private(set) var currentFrame: Int64 = 0

    init(format: PCMFormat, frameCount: Int64, corruptAt: Int64? = nil, unreachable: Bool = false, href: String) {
        self.format = format
        total = frameCount
        self.corruptAt = corruptAt
        self.unreachable = unreachable
        self.href = href
    }

    var frameCount: Int64? { total }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let limit = corruptAt ?? total
        if currentFrame >= limit, corruptAt != nil {
            if unreachable {
                throw AudioDecoderError(reading: ResourceError(.remoteUnreachable, href: href, message: "cannot connect to the server"), href: href)
            }
            throw AudioDecoderError(.corrupt, href: href, message: "broken at frame \(limit)")
        }
        let frames = Int(min(Int64(maxFrames), limit - currentFrame))
        for frame in 0..<frames {
            for channel in 0..<format.channelCount {
                buffer[frame * format.channelCount + channel] = Float(currentFrame + Int64(frame)) / 1e6
            }
        }
        currentFrame += Int64(frames)
        return frames
    }

    func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        currentFrame = min(max(frame, 0), total)
    }
}

/// Makes `CountingDecoder`s by href: `"<frames>"` (`"0"`: no audio at all), `"<frames>-corrupt<at>"`,
/// `"<frames>-unreachable<at>"` (the server goes away at that frame), or `"opus"` (unsupported).
struct CountingDecoderFactory: AudioDecoderFactory {
    let format: PCMFormat

    func makeDecoder(for resource: any Resource, mediaType: MediaType?) throws(AudioDecoderError) -> any AudioDecoder {
        let name = resource.href.split(separator: ".").first.map(String.init) ?? ""
        if name == "opus" { throw AudioDecoderError(.trackUnsupported, href: resource.href, message: "Opus is not supported yet") }
        let parts = name.split(separator: "-")
        let frames = Int64(parts[0]) ?? 0
        let failure = parts.count > 1 ? parts[1] : ""
        let unreachable = failure.hasPrefix("unreachable")
        let corruptAt = parts.count > 1 ? Int64(failure.drop { $0.isLetter }) : nil
        return CountingDecoder(format: format, frameCount: frames, corruptAt: corruptAt, unreachable: unreachable, href: resource.href)
    }
}

/// A sink that keeps every sample in memory (thread-safe reads for the test).
final class MemorySink: AudioSink, Sendable {
    let samples = Locked<[Float]>([])
    let formats = Locked<[PCMFormat]>([])

    func open(format: PCMFormat) throws(AudioSinkError) { formats.withLock { $0.append(format) } }
    func write(_ input: UnsafeBufferPointer<Float>) throws(AudioSinkError) { samples.withLock { $0.append(contentsOf: input) } }
    var pendingFrames: Int { 0 }
    func pause() {}
    func resume() {}
    func flush() {}
    func drain() throws(AudioSinkError) {}
    func close() throws(AudioSinkError) {}
}

/// Passes samples through (speed 1 only), for deterministic tests.
final class PassthroughSpeed: SpeedProcessor {
    let format: PCMFormat
    var speed = 1.0
    private var queue: [Float] = []
    init(format: PCMFormat) { self.format = format }
    func push(_ samples: UnsafeBufferPointer<Float>) { queue.append(contentsOf: samples) }
    var availableFrames: Int { queue.count / format.channelCount }
    func pull(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let count = min(buffer.count / format.channelCount * format.channelCount, queue.count)
        for index in 0..<count { buffer[index] = queue[index] }
        queue.removeFirst(count)
        return count / format.channelCount
    }
    func flush() {}
    func reset() { queue.removeAll() }
}

/// A container whose resources exist for any listed href (their bytes are never read).
struct NamesContainer: Container {
    let names: [String]
    var sourceURL: URL { URL(fileURLWithPath: "/test") }
    var entries: [String] { names }
    func resource(at href: String) throws(ResourceError) -> any Resource {
        guard names.contains(href) else { throw ResourceError(.notFound, href: href, message: "not found") }
        return DataResource(data: Data(), href: href)
    }
}

enum TestBooks {
    static let format = PCMFormat(sampleRate: 1000, channelCount: 1)

    /// A publication of tracks named by their decoders' behaviour, with durations from the names.
    static func publication(_ names: [String], durations: Bool = true) -> Publication {
        let links = names.map { name in
            Link(href: name, type: "audio/mpeg",
                 duration: durations ? Double(name.split(separator: "-").first.flatMap { Int($0.split(separator: ".")[0]) } ?? 0) / 1000 : nil)
        }
        let manifest = Manifest(metadata: Metadata(title: .plain("Test")), readingOrder: links)
        return Publication(manifest: manifest, container: NamesContainer(names: names), mediaType: .readiumAudiobookManifest)
    }

    static func components(sink: MemorySink) -> AudioComponents {
        AudioComponents(
            decoderFactory: CountingDecoderFactory(format: format),
            makeSink: { () throws(AudioSinkError) -> any AudioSink in sink },
            makeSpeedProcessor: { (format: PCMFormat) -> any SpeedProcessor in PassthroughSpeed(format: format) },
            makeResampler: { (_: PCMFormat, _: PCMFormat) -> any Resampler in fatalError("no resampling in these tests") },
            probeDuration: { (_: any Resource) -> Double? in nil })
    }
}
