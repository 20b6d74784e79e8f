// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Dynamic time warping of a reference (synthesized speech) against narration, coarse then fine: the whole
/// span at a resolution where it fits in `maximumCells`, then each finer level only within `radius` frames of the
/// path the coarser one found (projected), down to 10 ms frames. There is no single band around the diagonal, so
/// a narration slower or faster than the reference in places does not drift; memory is the cells of one level.
///
/// Three steps, each costing the distance of the cell it reaches (a step along one side alone `stepPenalty` more):
/// with weights of the symmetric kind (the diagonal twice) an open end would let the whole reference sit on one
/// narration frame. With `openBegin`/`openEnd`, the
/// reference may start and end anywhere in the narration (subsequence warping; the end chosen by the cost per
/// step): what comes before and after is narration with no text.
public enum DynamicTimeWarping {
    public struct Path: Sendable {
        /// For each reference frame, the first and last narration frame it is matched with.
        public var first: [Int32]
        public var last: [Int32]
        /// For each reference frame, the distance at its first match.
        public var distance: [Float]

        /// The narration frame where the reference starts and the one after its end.
        public var audioStart: Int { first.first.map(Int.init) ?? 0 }
        public var audioEnd: Int { last.last.map { Int($0) + 1 } ?? 0 }
    }

    /// Added to a step that moves along one side only: the diagonal is preferred where both fit as well.
    public static let stepPenalty: Float = 0.5

    /// The distance of two frames (unit length, `SpeechFeatures.normalize()`): three times one minus the cosine of
    /// their angle, 0 (the same) to 6 (opposite).
    @inline(__always)
    public static func distance(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> Float {
        var dot: Float = 0
        for dimension in 0..<SpeechFeatures.dimensions { dot += a[dimension] * b[dimension] }
        return 3 * (1 - dot)
    }

    /// Aligns `reference` with `audio` (both normalized). Empty when either is.
    public static func align(reference: SpeechFeatures, audio: SpeechFeatures, openBegin: Bool, openEnd: Bool,
                             maximumCells: Int = 48_000_000, radius: Int = 30) -> Path {
        let n = reference.count, m = audio.count
        guard n > 0, m > 0 else { return Path(first: [], last: [], distance: []) }
        // Factors: the top one fits maximumCells over the whole span; each next is half of it.
        var factor = 1
        while (n / factor + 1) * (m / factor + 1) > maximumCells { factor *= 2 }
        var factors: [Int] = [factor]
        while factor > 1 { factor = max(1, factor / 2); factors.append(factor) }
        let quietThreshold = Self.quietThreshold(audio.energy)
        var windows: [Range<Int>]? = nil
        var path: Path? = nil
        for (level, factor) in factors.enumerated() {
            let ref = reference.downsampled(by: factor), aud = audio.downsampled(by: factor)
            let rows = ref.count, columns = aud.count
            var levelWindows: [Range<Int>]
            if let previous = path, level > 0 {
                let ratio = factors[level - 1] / factor
                levelWindows = (0..<rows).map { row in
                    let coarse = min(previous.first.count - 1, row / ratio)
                    let lowerRow = max(0, coarse - 1), upperRow = min(previous.first.count - 1, coarse + 1)
                    let lower = Int(previous.first[lowerRow]) * ratio - radius
                    let upper = (Int(previous.last[upperRow]) + 1) * ratio + radius
                    return max(0, lower)..<min(columns, max(upper, lower + 1))
                }
            } else {
                levelWindows = Array(repeating: 0..<columns, count: rows)
            }
            // Monotone, overlapping windows: a path exists through them.
            for row in 1..<max(1, rows) {
                let previousWindow = levelWindows[row - 1]
                var lower = max(levelWindows[row].lowerBound, previousWindow.lowerBound)
                let upper = max(levelWindows[row].upperBound, previousWindow.upperBound)
                lower = min(lower, previousWindow.upperBound - 1)
                levelWindows[row] = lower..<max(upper, lower + 1)
            }
            for row in stride(from: rows - 2, through: 0, by: -1) {
                let next = levelWindows[row + 1]
                if levelWindows[row].upperBound > next.upperBound { levelWindows[row] = levelWindows[row].lowerBound..<next.upperBound }
            }
            if !openBegin { levelWindows[0] = 0..<max(1, levelWindows[0].upperBound) }
            if !openEnd { levelWindows[rows - 1] = levelWindows[rows - 1].lowerBound..<columns }
            windows = levelWindows
            path = warp(ref, aud, windows: levelWindows, quiet: quietFrames(aud.energy, threshold: quietThreshold), openBegin: openBegin, openEnd: openEnd)
        }
        _ = windows
        return path!
    }

    /// What a narration frame held across costs when it is quiet (a pause): less than any frame of speech, so that
    /// the narrator's pauses, longer than the reference's, do not pull the path off.
    public static let quietStepCost: Float = 1

    /// The log energy under which a frame of `energy` is quiet: a third of the way from its floor (10th percentile)
    /// to its speech (90th).
    public static func quietThreshold(_ energy: [Float]) -> Float {
        guard !energy.isEmpty else { return -.infinity }
        let sorted = energy.sorted()
        let floor = sorted[sorted.count / 10], speech = sorted[sorted.count * 9 / 10]
        return floor + (speech - floor) / 3
    }

    static func quietFrames(_ energy: [Float], threshold: Float) -> [Bool] {
        energy.map { $0 < threshold }
    }

    /// One level: the best path through `windows` (one range of columns per row).
    static func warp(_ reference: SpeechFeatures, _ audio: SpeechFeatures, windows: [Range<Int>], quiet: [Bool], openBegin: Bool, openEnd: Bool) -> Path {
        let rows = reference.count
        var offsets = [Int](repeating: 0, count: rows + 1)
        for row in 0..<rows { offsets[row + 1] = offsets[row] + windows[row].count }
        // 0: diagonal, 1: up (the reference moves on), 2: across (the narration moves on), 3: a start.
        var steps = [UInt8](repeating: 3, count: offsets[rows])
        var previousCost = [Float](), previousStart = [Int32]()
        var currentCost = [Float](), currentStart = [Int32]()
        var lastRowCost = [Float]()
        var lastRowStart = [Int32]()
        let dimensions = SpeechFeatures.dimensions
        reference.values.withUnsafeBufferPointer { refValues in
            audio.values.withUnsafeBufferPointer { audValues in
                for row in 0..<rows {
                    let window = windows[row]
                    currentCost = [Float](repeating: .infinity, count: window.count)
                    currentStart = [Int32](repeating: 0, count: window.count)
                    let previousWindow = row > 0 ? windows[row - 1] : 0..<0
                    let refPointer = refValues.baseAddress! + row * dimensions
                    for column in window {
                        let index = column - window.lowerBound
                        let d = distance(refPointer, audValues.baseAddress! + column * dimensions)
                        var best = Float.infinity, step: UInt8 = 3, start = Int32(column)
                        if row == 0 {
                            if openBegin || column == 0 { best = d; step = 3 }
                        } else {
                            if previousWindow.contains(column - 1) {
                                let candidate = previousCost[column - 1 - previousWindow.lowerBound] + d
                                if candidate < best { best = candidate; step = 0; start = previousStart[column - 1 - previousWindow.lowerBound] }
                            }
                            if previousWindow.contains(column) {
                                let candidate = previousCost[column - previousWindow.lowerBound] + d + stepPenalty
                                if candidate < best { best = candidate; step = 1; start = previousStart[column - previousWindow.lowerBound] }
                            }
                        }
                        if index > 0 {
                            let candidate = currentCost[index - 1] + (quiet[column] ? min(d, quietStepCost) : d) + stepPenalty
                            if candidate < best { best = candidate; step = 2; start = currentStart[index - 1] }
                        }
                        currentCost[index] = best
                        currentStart[index] = start
                        steps[offsets[row] + index] = step
                    }
                    swap(&previousCost, &currentCost)
                    swap(&previousStart, &currentStart)
                }
            }
        }
        lastRowCost = previousCost
        lastRowStart = previousStart
        // The end: the last column, or (open) the least cost per step.
        let lastWindow = windows[rows - 1]
        var endColumn = lastWindow.upperBound - 1
        if openEnd {
            var bestScore = Float.infinity
            for column in lastWindow {
                let index = column - lastWindow.lowerBound
                let cost = lastRowCost[index]
                guard cost.isFinite else { continue }
                let length = Float(rows + column - Int(lastRowStart[index]) + 1)
                if cost / length < bestScore { bestScore = cost / length; endColumn = column }
            }
        }
        var first = [Int32](repeating: 0, count: rows), last = [Int32](repeating: 0, count: rows)
        var distances = [Float](repeating: 0, count: rows)
        var row = rows - 1, column = endColumn
        last[row] = Int32(column)
        reference.values.withUnsafeBufferPointer { refValues in
            audio.values.withUnsafeBufferPointer { audValues in
                while true {
                    first[row] = Int32(column)
                    distances[row] = distance(refValues.baseAddress! + row * dimensions, audValues.baseAddress! + column * dimensions)
                    let window = windows[row]
                    let step = steps[offsets[row] + column - window.lowerBound]
                    switch step {
                    case 0:
                        row -= 1; column -= 1
                        last[row] = Int32(column)
                    case 1:
                        row -= 1
                        last[row] = Int32(column)
                    case 2:
                        column -= 1
                    default:
                        return
                    }
                    if row < 0 { return }
                }
            }
        }
        return Path(first: first, last: last, distance: distances)
    }
}
