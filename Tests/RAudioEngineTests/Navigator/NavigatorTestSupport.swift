// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// Collects a navigator's events for a test and waits for conditions on them.
final class EventRecorder: Sendable {
    private let events = Locked<[AudioNavigatorEvent]>([])
    private let done = Locked(false)

    init(_ navigator: AudioNavigator) {
        let stream = navigator.events
        Task { [self] in
            for await event in stream { events.withLock { $0.append(event) } }
            done.withLock { $0 = true }
        }
    }

    var all: [AudioNavigatorEvent] { events.withLock { $0 } }

    var states: [PlaybackState] {
        all.compactMap { if case .stateChanged(let state, _) = $0 { state } else { nil } }
    }

    var warnings: [NavigatorIssue] {
        all.compactMap { if case .warning(let issue) = $0 { issue } else { nil } }
    }

    var errors: [NavigatorIssue] {
        all.compactMap { if case .error(let issue) = $0 { issue } else { nil } }
    }

    /// Every locator carried by an event.
    var locators: [Locator] {
        all.compactMap {
            switch $0 {
            case .stateChanged(_, let locator), .position(let locator), .trackChanged(_, _, let locator): locator
            case .warning(let issue), .error(let issue): issue.locator
            }
        }
    }

    /// Waits (polling; at most `timeout` seconds, a guard against hangs, not a measurement) until
    /// `condition` holds for the events so far.
    func wait(timeout: Double = 60, until condition: ([AudioNavigatorEvent]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !condition(all) {
            guard ContinuousClock.now < deadline else {
                throw NavigatorTestFailure(message: "timed out; events: \(all.map { "\($0)" }.joined(separator: "\n"))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the navigator emitted `state`.
    func wait(for state: PlaybackState, timeout: Double = 60) async throws {
        try await wait(timeout: timeout) { events in
            events.contains { if case .stateChanged(let s, _) = $0 { s == state } else { false } }
        }
    }

    /// Waits until the stream finished (after `close()`).
    func waitUntilFinished() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done.withLock({ $0 }) {
            guard ContinuousClock.now < deadline else { throw NavigatorTestFailure(message: "event stream did not finish") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

struct NavigatorTestFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A rendered 16-bit WAV file, read back.
struct RenderedWAV {
    var sampleRate: Int
    var channelCount: Int
    /// Interleaved samples scaled to [-1, 1].
    var samples: [Float]
    var frameCount: Int { samples.count / channelCount }

    init(url: URL) throws {
        let data = try Data(contentsOf: url)
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
            throw NavigatorTestFailure(message: "\(url.path) is not a WAV file")
        }
        var offset = 12
        var rate = 0, channels = 0
        var pcm: [Float]?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                channels = u16(body + 2)
                rate = u32(body + 4)
            } else if id == "data" {
                let end = min(body + size, bytes.count)
                var samples = [Float]()
                samples.reserveCapacity((end - body) / 2)
                var index = body
                while index + 1 < end {
                    samples.append(Float(Int16(bitPattern: UInt16(u16(index)))) / 32767)
                    index += 2
                }
                pcm = samples
            }
            offset = body + size + (size & 1)
        }
        guard let pcm, rate > 0, channels > 0 else { throw NavigatorTestFailure(message: "\(url.path) has no fmt or data chunk") }
        sampleRate = rate
        channelCount = channels
        samples = pcm
    }
}

enum NavigatorFixtures {
    static var sampleBook: URL { Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook") }
    static var sampleFolder: URL { Corpus.projectRoot.appendingPathComponent("samples/gull-rock") }

    static func open(_ url: URL) throws -> Publication {
        try PublicationOpener().open(url: url)
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-nav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Decodes a whole file (or from `startFrame`, up to `maxFrames`) with the real decoders.
    static func decode(_ url: URL, startFrame: Int64 = 0, maxFrames: Int = .max) throws -> (format: PCMFormat, samples: [Float]) {
        let decoder = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url), mediaType: nil)
        if startFrame > 0 { try decoder.seek(toFrame: startFrame) }
        let channels = decoder.format.channelCount
        var samples = [Float]()
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * channels)
        defer { buffer.deallocate() }
        while samples.count / channels < maxFrames {
            let frames: Int
            do { frames = try decoder.read(into: buffer, maxFrames: min(4096, maxFrames - samples.count / channels)) } catch { break }
            if frames == 0 { break }
            samples.append(contentsOf: UnsafeBufferPointer(start: buffer, count: frames * channels))
        }
        return (decoder.format, samples)
    }

    /// How many frames `frames` frames of `from` become in `to`, through a fresh soxr resampler
    /// pushed everything and flushed (as the renderer converts an item).
    static func convertedFrameCount(_ samples: [Float], from: PCMFormat, to: PCMFormat) throws -> Int {
        guard from != to else { return samples.count / from.channelCount }
        let resampler = try SoxrResampler(from: from, to: to)
        var total = 0
        var buffer = [Float](repeating: 0, count: 65_536 * to.channelCount)
        func pullAll() {
            buffer.withUnsafeMutableBufferPointer { pointer in
                while true {
                    let frames = resampler.pull(into: pointer)
                    if frames == 0 { break }
                    total += frames
                }
            }
        }
        let chunk = 2048 * from.channelCount
        var start = 0
        while start < samples.count {
            let end = min(start + chunk, samples.count)
            samples[start..<end].withUnsafeBufferPointer { resampler.push($0) }
            pullAll()
            start = end
        }
        resampler.flush()
        pullAll()
        return total
    }

    /// Validates every locator with the Readium schema.
    static func validate(_ locators: [Locator]) throws {
        guard !locators.isEmpty else { throw NavigatorTestFailure(message: "no locator to validate") }
        try ReadiumValidator.validate(.locator, locators.map { $0.json.serialized() }.joined(separator: "\n"))
    }
}
