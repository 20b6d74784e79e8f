// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// `speak-first-buffer EPUB [--href HREF]`: the time from process start (`/proc/self/stat`) to the
/// first buffer `PublicationSpeechSynthesizer` hands to the output, speaking from a locator in the
/// last chapter, as `raudio speak EPUB --from LOCATOR --output null` does (a Piper voice's inference
/// threads waiting as for live playback, though: what a listener gets).
///
/// One measurement per process (the script runs many fresh processes and quotes the median). Timed
/// from process start: with a Piper voice, starting its worker (which loads the model meanwhile), then
/// starting eSpeak NG's initialization on its thread, opening the EPUB as `raudio speak` does (no
/// up-front parse of every chapter), loading the voice presets and waiting for eSpeak NG, building the synthesizer (null output, its
/// sink wrapped in a `FirstWriteTimingSink`), `start(from:)` a locator at `progression` 0.5 of
/// `--href` (default: the last chapter of the table of contents), up to the first `write`. The
/// parts are reported too, and when the engine's first chunk of PCM came (`firstChunkMs`: the first
/// audio a renderer that plays an utterance from its first chunk could give).
struct SpeakFirstBufferBenchmark {
    let path: String
    let href: String?
    /// `--voice piper:NAME`: speak with that Piper voice (its load is inside the engine time).
    let voice: String?
    let progression = 0.5

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
        href = arguments.string("href")
        voice = arguments.string("voice")
    }

    func run() throws(BenchmarkError) {
        guard let startBoot = ProcessStartTime.startBootSeconds() else {
            throw .notMeasurable("/proc/self/stat is not readable: no process start time")
        }
        let mainBoot = ProcessStartTime.bootTimeNow()
        let clock = ContinuousClock()
        let piperLoad = BenchmarkSpeechEngine.startLoading(voice: voice)  // as raudio speak: loading while the book opens
        ESpeakEngine.startInitializing()  // as raudio speak: initializing on its thread while the book opens
        let openStart = clock.now
        let publication = try EPUBOpening.open(path, checksContentDocuments: false)  // as raudio speak opens
        let link = href.map { publication.readingOrderLink(forHref: $0) } ?? EPUBFirstElementBenchmark.lastChapter(of: publication)
        guard let link else { throw .failed("\(path): \(href.map { "\($0) is not in the reading order" } ?? "the reading order is empty")") }
        let locator = Locator(href: link.href, type: link.type ?? "application/xhtml+xml",
                              locations: Locator.Locations(progression: progression))
        let opened = clock.now
        let (madeEngine, voiceIdentifier) = try BenchmarkSpeechEngine.make(voice: voice, started: piperLoad)
        let engine = FirstChunkTimingEngine(wrapping: madeEngine)
        let engineReady = clock.now
        let record = FirstWriteTimingSink.Record()
        let components = AudioEngineComponents.make(output: .null).timingFirstWrite(into: record)
        let contentWarnings = (publication.extensions[ContentServiceKey.key] as? EPUBContentService)?.warnings
        let synthesizer: PublicationSpeechSynthesizer
        do {
            synthesizer = try PublicationSpeechSynthesizer(publication: publication, engine: engine, components: components,
                                                           configuration: SpeechSynthesizerConfiguration(voiceIdentifier: voiceIdentifier),
                                                           contentWarnings: contentWarnings)
        } catch {
            throw .failed("\(path): \(error.message)")
        }
        let built = clock.now
        let started = Locked<ContinuousClock.Instant?>(nil)
        let failure = Locked<String?>(nil)
        Task {
            started.withLock { $0 = clock.now }
            do {
                try await synthesizer.start(from: locator)
            } catch {
                failure.withLock { $0 = "\(path): start(from: \(link.href)): \(error)" }
                record.cancel()
            }
        }
        let written = record.waitForFirstWrite(timeout: 30)
        let firstUtterance = Locked<String?>(nil)
        let closed = DispatchSemaphore(value: 0)
        Task {
            let state = await synthesizer.state
            if case .playing(let utterance, _) = state { firstUtterance.withLock { $0 = utterance.text } }
            await synthesizer.close()
            closed.signal()
        }
        closed.wait()
        if let failure = failure.withLock({ $0 }) { throw .failed(failure) }
        guard written, let firstBoot = record.bootSeconds, let firstInstant = record.instant,
              let start = started.withLock({ $0 }) else {
            throw .failed("\(path): no buffer was written within 30 s")
        }
        BenchmarkRunner.emit([
            "measurement": "speak-first-buffer",
            "file": .string(path),
            "href": .string(link.href),
            "progression": .number(of: progression),
            "firstUtterance": .string(String((firstUtterance.withLock { $0 } ?? "").prefix(60))),
            "ms": .number(of: (firstBoot - startBoot) * 1000),
            "mainMs": .number(of: (mainBoot - startBoot) * 1000),
            "openMs": .number(of: (opened - openStart).milliseconds),
            "engineMs": .number(of: (engineReady - opened).milliseconds),
            "synthesizerMs": .number(of: (built - engineReady).milliseconds),
            "startToFirstBufferMs": .number(of: (firstInstant - start).milliseconds),
            "firstChunkMs": engine.firstChunkBootSeconds.map { JSONValue.number(of: ($0 - startBoot) * 1000) } ?? JSONValue.null,
            "tickMs": .number(of: 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))),
        ])
    }
}
