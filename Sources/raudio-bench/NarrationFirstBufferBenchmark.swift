import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Synchronization

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

    /// Milliseconds from building the navigator to the first buffer written.
    private func measure(_ publication: Publication, from locator: Locator) throws(BenchmarkError) -> Double {
        let clock = ContinuousClock()
        let firstWrite = Mutex<ContinuousClock.Instant?>(nil)
        let written = DispatchSemaphore(value: 0)
        var components = AudioEngineComponents.make(output: .null)
        components.makeSink = { () throws(AudioSinkError) -> any AudioSink in
            FirstWriteSink(onFirstWrite: {
                firstWrite.withLock { $0 = clock.now }
                written.signal()
            })
        }
        let outcome = Mutex<Result<ContinuousClock.Instant, BenchmarkError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let start = clock.now
            do {
                let navigator = try MediaOverlayNavigator(publication: publication, components: components, engine: nil)
                try await navigator.go(to: locator)
                await navigator.play()
                await Task.detached { written.wait() }.value
                await navigator.close()
                outcome.withLock { $0 = .success(start) }
            } catch {
                outcome.withLock { $0 = .failure(.failed("\(path): \(error)")) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let start)?:
            guard let end = firstWrite.withLock({ $0 }) else { throw .failed("\(path): no buffer was written") }
            return (end - start).milliseconds
        case .failure(let error)?: throw error
        case nil: throw .failed("\(path): the measurement did not finish")
        }
    }
}

/// A null output that reports its first write (on the render thread).
final class FirstWriteSink: AudioSink {
    private let onFirstWrite: @Sendable () -> Void
    private var hasWritten = false

    init(onFirstWrite: @escaping @Sendable () -> Void) {
        self.onFirstWrite = onFirstWrite
    }

    func open(format: PCMFormat) throws(AudioSinkError) {}
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        guard !hasWritten else { return }
        hasWritten = true
        onFirstWrite()
    }
    var pendingFrames: Int { 0 }
    func pause() {}
    func resume() {}
    func flush() {}
    func drain() throws(AudioSinkError) {}
    func close() throws(AudioSinkError) {}
}
