// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioState
import ReadiumShared
import Synchronization

/// `--normalize`: brings every track of an audiobook to the same loudness (EBU R 128, `target` LUFS).
///
/// Gains the store already holds (measured in an earlier session) apply from the first sample. The
/// others are measured on a background thread, one track after another from the one playing (decoding
/// each whole with libebur128, on the second core), saved in the store, and apply from the next time
/// their track opens; a track that opens before its measurement is done plays as it is.
public final class LoudnessAnalysis: Sendable {
    /// The common loudness, as EBU R 128 recommends for speech at home listening levels.
    public static let target = -18.0
    public let gains = LoudnessGains()
    private let cancelled = Flag()

    /// A flag the measuring thread reads.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        public var isSet: Bool { value.load(ordering: .relaxed) }
        public func set() { value.store(true, ordering: .relaxed) }
    }

    public init(publication: Publication, store: ListeningStateStore?, key: String?, startingAt first: Int = 0) {
        let hrefs = publication.readingOrder.map(\.hrefWithoutFragment)
        let cached = (try? key.flatMap { try store?.loudness(key: $0) }) ?? [:]
        var missing: [String] = []
        for href in hrefs {
            if let known = cached[href] {
                gains.set(TrackLoudness(integrated: known.integrated, samplePeak: known.samplePeak).gain(toward: Self.target), for: href)
            } else if !missing.contains(href) {
                missing.append(href)
            }
        }
        guard !missing.isEmpty else { return }
        // From the track playing on, then the ones before it.
        let start = min(max(first, 0), hrefs.count - 1)
        let distance = { (href: String) in ((hrefs.firstIndex(of: href) ?? 0) - start + hrefs.count) % hrefs.count }
        let order = missing.sorted { distance($0) < distance($1) }
        let gains = gains, cancelled = cancelled
        BlockingWork.startThread(named: "raudio.loudness", qualityOfService: .utility) {
            for href in order where !cancelled.isSet {
                do {
                    let loudness = try LoudnessMeter.measure(try publication.resource(at: href)) { cancelled.isSet }
                    gains.set(loudness.gain(toward: Self.target), for: href)
                    if let key { try? store?.saveLoudness(key: key, href: href, integrated: loudness.integrated, samplePeak: loudness.samplePeak) }
                } catch {
                    // A track that cannot be measured plays as it is; its own errors are reported by playback.
                }
            }
        }
    }

    /// Stops measuring (at the end of the session).
    public func cancel() {
        cancelled.set()
    }
}
