// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// `narration-plan EPUB [--repeat 20] [--mode narration|no-tts|tts]`: the time to build a
/// `NarrationPlan` (parse every SMIL file; with text-to-speech, extract the text of every document
/// without an overlay, or of all of them with `tts`).
///
/// Timed: `NarrationPlan.init` only, on a fresh `Publication` per repetition (opening it is not
/// timed), as `raudio play` builds it: `narration` is the default (overlays, text-to-speech for
/// documents without one), `no-tts` is `--no-tts`, `tts` is `--tts`. Also timed, on another fresh
/// `Publication`: `NarrationPlanBuilder.init` (`firstMs`: what `raudio play` waits for before playing,
/// the first documents), and from then until its thread has planned the rest (`restMs`).
struct NarrationPlanBenchmark {
    let path: String
    let repetitions: Int
    let mode: String

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
        repetitions = try arguments.integer("repeat", default: 20)
        mode = arguments.string("mode") ?? "narration"
        guard ["narration", "no-tts", "tts"].contains(mode) else {
            throw .usage("--mode '\(mode)': expected narration, no-tts or tts")
        }
    }

    func run() throws(BenchmarkError) {
        let options = NarrationPlan.Options(speakDocumentsWithoutNarration: mode != "no-tts", forceTextToSpeech: mode == "tts")
        var timings: [Double] = []
        var firstTimings: [Double] = []
        var restTimings: [Double] = []
        var items = 0
        var firstItems = 0
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            let publication = try EPUBOpening.open(path)
            let start = clock.now
            let plan = NarrationPlan(publication: publication, options: options)
            timings.append((clock.now - start).milliseconds)
            items = plan.items.count
            let progressive = try EPUBOpening.open(path)
            let begin = clock.now
            let builder = NarrationPlanBuilder(publication: progressive, options: options, onWarning: { _ in })
            let built = clock.now
            firstTimings.append((built - begin).milliseconds)
            firstItems = builder.plan.items.count
            _ = builder.waitForItem(Int.max)
            restTimings.append((clock.now - built).milliseconds)
        }
        BenchmarkRunner.emit([
            "measurement": "narration-plan",
            "file": .string(path),
            "mode": .string(mode),
            "items": .integer(Int64(items)),
            "ms": Statistics(timings).json,
            "firstItems": .integer(Int64(firstItems)),
            "firstMs": Statistics(firstTimings).json,
            "restMs": Statistics(restTimings).json,
        ])
    }
}
