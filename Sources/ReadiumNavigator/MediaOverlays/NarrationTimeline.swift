// SPDX-License-Identifier: GPL-3.0-or-later
/// Narration time: the recorded clips of a `NarrationPlan`'s items, back to back, in plan order.
///
/// An item's duration is its clip's (`clipEnd - clipBegin`, from the SMIL, whether or not the audio
/// file can be opened); an item read with text-to-speech (no clip) takes no narration time, so a time
/// never lands on it and it shares the time of the next recorded item. A clip without `clipEnd` has
/// an unknown duration: times after it are unknown (nil) and a time past its start lands in it.
/// A pure value, built with the plan.
public struct NarrationTimeline: Sendable, Hashable {
    /// Seconds of each item: the clip's duration, 0 for text-to-speech, nil for a clip without end.
    public let durations: [Double?]
    /// Narration time at which each item starts; nil from the first unknown duration on.
    private let starts: [Double?]

    public init(items: [NarrationItem]) {
        durations = items.map { item in item.clip.map(\.duration) ?? 0 }
        var starts: [Double?] = []
        starts.reserveCapacity(durations.count)
        var total: Double? = 0
        for duration in durations {
            starts.append(total)
            total = total.flatMap { start in duration.map { start + $0 } }
        }
        self.starts = starts
        totalDuration = total
    }

    /// The length of the narration, when every clip's end is known.
    public let totalDuration: Double?

    /// Whether some recorded narration has a length, so that times can be placed (false for a
    /// narration read entirely with text-to-speech).
    public var hasRecordedTime: Bool {
        durations.contains { $0.map { $0 > 0 } ?? true }
    }

    /// Whether every item is a recorded clip of known length, so that `totalProgression` is by time.
    public var isFullyTimed: Bool {
        guard let totalDuration, totalDuration > 0 else { return false }
        return durations.allSatisfy { ($0 ?? 0) > 0 }
    }

    /// Narration time at which `item` starts, when the durations before it are known.
    public func startTime(ofItem item: Int) -> Double? {
        starts.indices.contains(item) ? starts[item] : nil
    }

    /// Narration time of `seconds` into `item` (clamped to the item's duration), when known.
    public func time(item: Int, seconds: Double) -> Double? {
        guard let start = startTime(ofItem: item) else { return nil }
        var offset = seconds.isFinite ? max(seconds, 0) : 0
        if let duration = durations[item] { offset = min(offset, duration) }
        return start + offset
    }

    /// The item and seconds into its clip of narration time `time`: the recorded item whose clip
    /// covers it (an item of no duration is never chosen), clamped to the narration: before the start
    /// is the first recorded item's start, past the end is the last recorded item's end. Nil when
    /// there is no recorded time.
    public func position(atTime time: Double) -> (item: Int, seconds: Double)? {
        guard let last = durations.lastIndex(where: { $0.map { $0 > 0 } ?? true }) else { return nil }
        let time = time.isNaN ? 0 : time
        for (index, duration) in durations.enumerated() {
            // Starts are the sums the locators use, so a clip's start time lands on that clip exactly.
            guard let start = starts[index] else { return nil }
            guard let duration else { return (index, time.isFinite ? max(time - start, 0) : 0) }
            guard duration > 0 else { continue }
            if time < start + duration || index == last { return (index, min(max(time - start, 0), duration)) }
        }
        return nil
    }

    /// Whether `position(atTime: time)` is the same however many items are appended after these
    /// (a plan being built): the time falls before the end of the clips so far, or after a clip of
    /// unknown length.
    public func placesFinally(_ time: Double) -> Bool {
        guard hasRecordedTime else { return false }
        guard let total = totalDuration else { return true }
        return time < total
    }

    /// Where `seconds` into `item` is in the whole narration, 0 to 1, when `isFullyTimed`.
    public func totalProgression(item: Int, seconds: Double) -> Double? {
        guard isFullyTimed, let total = totalDuration, let time = time(item: item, seconds: seconds) else { return nil }
        return min(max(time / total, 0), 1)
    }
}
