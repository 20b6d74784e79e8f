// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// A `par` with audio read straight from the SMIL (through the overlay service, not the plan), with
/// its start in narration time: what the tests expect the timeline to be.
struct RecordedPar {
    var textHref: String?
    var clip: MediaOverlayClip
    var start: Double
    var duration: Double { clip.duration ?? 0 }

    /// The exact frames the renderer plays of this clip from `seconds` into it.
    func frames(from seconds: Double, rate: Int) -> Int {
        let end = Int(((clip.end ?? 0) * Double(rate)).rounded())
        let begin = Int((clip.begin * Double(rate)).rounded())
        return end - begin - Int((seconds * Double(rate)).rounded())
    }
}

enum NarrationFixtures {
    static let navigation = "epub/w3c-epub-tests/mol-navigation.epub"
    static let daisy = "epub/daisy/epub30-test-0320-media-overlays.PARTIAL-AUDIO.epub"

    static func open(_ book: String) throws -> Publication {
        try EPUBParser().parse(container: ZIPContainer(url: Corpus.file(book)))
    }

    /// Every `par` with a clip, in reading order, with the clips' durations summed before it.
    static func recordedPars(of publication: Publication) throws -> [RecordedPar] {
        guard let service = publication.mediaOverlays else { throw NarrationTestFailure(message: "no media overlays") }
        var pars: [RecordedPar] = []
        var time = 0.0
        for index in publication.readingOrder.indices {
            for par in try service.mediaOverlay(at: index)?.pars ?? [] {
                guard let clip = par.audio else { continue }
                pars.append(RecordedPar(textHref: par.textHref, clip: clip, start: time))
                time += clip.duration ?? 0
            }
        }
        return pars
    }
}

struct NarrationTestFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Collects a `MediaOverlayNavigator`'s events and waits for conditions on them.
final class NarrationEventRecorder: Sendable {
    private let events = Locked<[MediaOverlayNavigatorEvent]>([])
    private let done = Locked(false)

    init(_ navigator: MediaOverlayNavigator) {
        let stream = navigator.events
        Task { [self] in
            for await event in stream { events.withLock { $0.append(event) } }
            done.withLock { $0 = true }
        }
    }

    var all: [MediaOverlayNavigatorEvent] { events.withLock { $0 } }

    var states: [PlaybackState] {
        all.compactMap { if case .stateChanged(let state, _, _) = $0 { state } else { nil } }
    }

    /// The items announced by `utterance` events, in order.
    var utterances: [NarrationItem] {
        all.compactMap { if case .utterance(let item, _, _) = $0 { item } else { nil } }
    }

    /// Waits (polling; `timeout` guards against hangs, it measures nothing) until `count` `state`
    /// events `state` were emitted.
    func wait(for state: PlaybackState, count: Int = 1, timeout: Double = 60) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while states.filter({ $0 == state }).count < count {
            guard ContinuousClock.now < deadline else {
                throw NarrationTestFailure(message: "timed out waiting for \(state); events: \(all.map { "\($0)" }.joined(separator: "\n"))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func waitUntilFinished() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done.withLock({ $0 }) {
            guard ContinuousClock.now < deadline else { throw NarrationTestFailure(message: "event stream did not finish") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
