// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// `speak-gaps EPUB [--href HREF] [--seconds 1800]`: the silence `PublicationSpeechSynthesizer` adds
/// between utterances, rendering one chapter as fast as synthesis allows.
///
/// Speaks from the start of `--href` (default: the first chapter of the table of contents) with the
/// real eSpeak NG engine, wrapped in a `RecordingTTSEngine` that keeps each utterance's own PCM, into a
/// `GapComparingSink` that compares the rendered stream with the concatenation of those utterances.
/// Stops when the first utterance of another resource is announced (or after `--seconds` of audio).
/// Reports the samples added (total and longest run), the samples dropped or changed (and where the
/// first difference was: the utterance, in synthesis order, and the second of output; -1 when none),
/// and the longest silence heard against the voice's own longest (inside utterances and across their
/// boundaries). Closing cancels the syntheses ahead: the part of one that played from its first
/// chunks before that is compared with those chunks, and counted in `cancelledSamplesRendered`.
struct SpeechGapBenchmark {
    let path: String
    let href: String?
    let seconds: Int
    /// `--voice piper:NAME`: speak with that Piper voice.
    let voice: String?

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
        href = arguments.string("href")
        seconds = try arguments.integer("seconds", default: 1800)
        voice = arguments.string("voice")
    }

    func run() throws(BenchmarkError) {
        let publication = try EPUBOpening.open(path, checksContentDocuments: false)  // as raudio speak opens
        guard let link = href.map({ publication.readingOrderLink(forHref: $0) }) ?? Self.firstChapter(of: publication) else {
            throw .failed("\(path): \(href.map { "\($0) is not in the reading order" } ?? "the table of contents is empty")")
        }
        let (engine, voiceIdentifier) = try BenchmarkSpeechEngine.make(voice: voice)
        let recorder = RecordingTTSEngine(wrapping: engine)
        let sinkBox = Locked<GapComparingSink?>(nil)
        var components = AudioEngineComponents.make(output: .null)
        components.makeSink = { () throws(AudioSinkError) -> any AudioSink in
            let sink = GapComparingSink(recorder: recorder)
            sinkBox.withLock { $0 = sink }
            return sink
        }
        let synthesizer: PublicationSpeechSynthesizer
        do {
            synthesizer = try PublicationSpeechSynthesizer(
                publication: publication, engine: recorder, components: components,
                configuration: SpeechSynthesizerConfiguration(voiceIdentifier: voiceIdentifier, stopAfter: Double(seconds)))
        } catch {
            throw .failed("\(path): \(error.message)")
        }
        let chapterHref = link.href
        let outcome = Locked<(utterances: Int, reason: String, failure: String?)>((0, "", nil))
        let done = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let start = clock.now
        Task {
            do {
                try await synthesizer.start(from: Locator(href: chapterHref, type: link.type ?? "application/xhtml+xml"))
            } catch {
                outcome.withLock { $0.failure = "\(path): start(from: \(chapterHref)): \(error)" }
                done.signal()
                return
            }
            for await event in synthesizer.events {
                switch event {
                case .utterance(let utterance, _):
                    if Self.withoutFragment(utterance.locator.href) != Self.withoutFragment(chapterHref) {
                        outcome.withLock { $0.reason = "next chapter" }
                        done.signal()
                        return
                    }
                    outcome.withLock { $0.utterances += 1 }
                case .stateChanged(let state, _) where state == .ended || state == .stopped || state == .failed:
                    outcome.withLock { $0.reason = "\(state)" }
                    done.signal()
                    return
                case .error(let issue):
                    outcome.withLock { $0.failure = "\(path): \(issue.message)" }
                    done.signal()
                    return
                default:
                    continue
                }
            }
            done.signal()
        }
        done.wait()
        let elapsed = (clock.now - start).milliseconds
        let failuresBeforeClose = recorder.failures  // closing cancels the syntheses ahead
        let closed = DispatchSemaphore(value: 0)
        Task {
            await synthesizer.close()
            closed.signal()
        }
        closed.wait()
        let result = outcome.withLock { $0 }
        if let failure = result.failure { throw .failed(failure) }
        guard let sink = sinkBox.withLock({ $0 }), let format = sink.format else { throw .failed("\(path): nothing was rendered") }
        // The syntheses the closing cancelled end on the engine's thread, maybe after the sink closed.
        guard recorder.waitForAllToEnd(timeout: .seconds(30)) else { throw .failed("\(path): a synthesis did not end within 30 s of closing") }
        sink.finish()
        let perMs = Double(format.sampleRate * format.channelCount) / 1000
        BenchmarkRunner.emit([
            "measurement": "speak-gaps",
            "file": .string(path),
            "href": .string(chapterHref),
            "stoppedAt": .string(result.reason),
            "utterancesAnnounced": .integer(Int64(result.utterances)),
            "utterancesCompared": .integer(Int64(sink.utterancesTaken)),
            "synthesisFailures": .integer(Int64(failuresBeforeClose)),
            "renderedSeconds": .number(of: Double(sink.renderedSamples) / perMs / 1000),
            "wallMs": .number(of: elapsed),
            "matchedSamples": .integer(Int64(sink.matchedSamples)),
            "addedSamples": .integer(Int64(sink.addedSamples)),
            "longestAddedMs": .number(of: Double(sink.longestAddedRun) / perMs),
            "mismatchedSamples": .integer(Int64(sink.mismatchedSamples)),
            "cancelledSamplesRendered": .integer(Int64(sink.cancelledSamplesRendered)),
            "firstDifferenceUtterance": .integer(Int64(sink.firstDifference?.utterance ?? -1)),
            "firstDifferenceSeconds": .number(of: sink.firstDifference.map { Double($0.sample) / perMs / 1000 } ?? -1),
            "longestSilenceMs": .number(of: Double(sink.longestRenderedSilence) / perMs),
            "longestOwnSilenceMs": .number(of: Double(sink.longestOwnSilence) / perMs),
        ])
    }

    /// The first reading-order link the table of contents points to (not the cover or title page
    /// when the table of contents skips them).
    static func firstChapter(of publication: Publication) -> Link? {
        var tocHrefs: [String] = []
        func collect(_ links: [Link]) {
            for link in links {
                tocHrefs.append(withoutFragment(link.href))
                collect(link.children)
            }
        }
        collect(publication.tableOfContents)
        for href in tocHrefs {
            if let link = publication.readingOrder.first(where: { withoutFragment($0.href) == href }) { return link }
        }
        return publication.readingOrder.first
    }

    static func withoutFragment(_ href: String) -> String {
        String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
