// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// `narration-first-buffer EPUB [--repeat 20] [--href HREF#ID]`: the time from asking for the
/// narration at a text locator to the first buffer handed to the output.
///
/// Timed: building the `MediaOverlayNavigator` (its plan parses every SMIL file and the narrated
/// content documents), `go(to:)` the text locator, `play()`, up to the first `write` of the output
/// (a `NullSink`). Not timed: opening the EPUB (a fresh `Publication` per repetition, so nothing
/// parsed is reused). The locator is `--href` (a text href with a fragment), else the middle `par` of
/// the middle narrated document. Text-to-speech is off (the locator is in recorded narration).
struct NarrationFirstBufferBenchmark {
    let path: String
    let repetitions: Int
    let href: String?

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
        repetitions = try arguments.integer("repeat", default: 20)
        href = arguments.string("href")
    }

    func run() throws(BenchmarkError) {
        var timings: [Double] = []
        var chosen = ""
        for _ in 0..<repetitions {
            let publication = try EPUBOpening.open(path)
            let locator = try startLocator(in: publication)
            chosen = locator.href
            timings.append(try measure(publication, from: locator))
        }
        BenchmarkRunner.emit([
            "measurement": "narration-first-buffer",
            "file": .string(path),
            "href": .string(chosen),
            "ms": Statistics(timings).json,
        ])
    }

    private func startLocator(in publication: Publication) throws(BenchmarkError) -> Locator {
        if let href { return Locator(href: href, type: "application/xhtml+xml") }
        guard let service = publication.mediaOverlays else { throw .failed("\(path): has no media overlays") }
        let narrated = publication.readingOrder.indices.filter { service.hasMediaOverlay(at: $0) }
        guard !narrated.isEmpty, let overlay = try? service.mediaOverlay(at: narrated[narrated.count / 2]),
              !overlay.pars.isEmpty, let textHref = overlay.pars[overlay.pars.count / 2].textHref else {
            throw .failed("\(path): its middle media overlay has no par with text")
        }
        return Locator(href: textHref, type: "application/xhtml+xml")
    }

    /// Milliseconds from building the navigator to the first buffer written (to the real null sink,
    /// wrapped in a `FirstWriteTimingSink`).
    private func measure(_ publication: Publication, from locator: Locator) throws(BenchmarkError) -> Double {
        let clock = ContinuousClock()
        let record = FirstWriteTimingSink.Record()
        let components = AudioEngineComponents.make(output: .null).timingFirstWrite(into: record)
        let navigator = Locked<MediaOverlayNavigator?>(nil)
        let failure = Locked<BenchmarkError?>(nil)
        let started = Locked<ContinuousClock.Instant?>(nil)
        // The navigator is built and commanded on the cooperative pool; this (main) thread waits for
        // the first write, so no pool thread ever blocks.
        Task {
            started.withLock { $0 = clock.now }
            do {
                let built = try MediaOverlayNavigator(publication: publication, components: components, engine: nil)
                navigator.withLock { $0 = built }
                try await built.go(to: locator)
                await built.play()
            } catch {
                failure.withLock { $0 = .failed("\(path): \(error)") }
                record.cancel()
            }
        }
        let written = record.waitForFirstWrite(timeout: 30)
        if let built = navigator.withLock({ $0 }) {
            let closed = DispatchSemaphore(value: 0)
            Task {
                await built.close()
                closed.signal()
            }
            closed.wait()
        }
        if let error = failure.withLock({ $0 }) { throw error }
        guard written, let end = record.instant, let start = started.withLock({ $0 }) else {
            throw .failed("\(path): no buffer was written within 30 s")
        }
        return (end - start).milliseconds
    }
}
