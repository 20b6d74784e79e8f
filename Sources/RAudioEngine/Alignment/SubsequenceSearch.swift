// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where a short query (the first seconds of a chapter's reference) is heard best in a long narration: subsequence
/// dynamic time warping, start and end free, memory for two rows. Used at a coarse rate (5 frames a second), over
/// every audio file, to locate each part of the text before aligning it.
public enum SubsequenceSearch {
    public struct Match: Sendable {
        /// The narration frames the query matches best.
        public var start: Int
        public var end: Int
        /// The cost per step of that match.
        public var cost: Float
    }

    /// The best match of `query` in `audio` and the cost per step of the best match ending at each frame
    /// (infinity where none can end).
    public static func search(_ query: SpeechFeatures, in audio: SpeechFeatures) -> (best: Match?, costs: [Float]) {
        let n = query.count, m = audio.count
        guard n > 0, m > 0 else { return (nil, []) }
        let dimensions = SpeechFeatures.dimensions
        let penalty = DynamicTimeWarping.stepPenalty
        var previous = [Float](repeating: .infinity, count: m), current = [Float](repeating: .infinity, count: m)
        var previousStart = [Int32](repeating: 0, count: m), currentStart = [Int32](repeating: 0, count: m)
        query.values.withUnsafeBufferPointer { q in
            audio.values.withUnsafeBufferPointer { a in
                for row in 0..<n {
                    let qp = q.baseAddress! + row * dimensions
                    for column in 0..<m {
                        let d = DynamicTimeWarping.distance(qp, a.baseAddress! + column * dimensions)
                        var best: Float, start: Int32
                        if row == 0 {
                            best = d; start = Int32(column)
                        } else {
                            best = previous[column] + d + penalty; start = previousStart[column]
                            if column > 0, previous[column - 1] + d < best { best = previous[column - 1] + d; start = previousStart[column - 1] }
                        }
                        if column > 0, current[column - 1] + d + penalty < best { best = current[column - 1] + d + penalty; start = currentStart[column - 1] }
                        current[column] = best
                        currentStart[column] = start
                    }
                    swap(&previous, &current)
                    swap(&previousStart, &currentStart)
                }
            }
        }
        var costs = [Float](repeating: .infinity, count: m)
        var best: Match?
        for column in 0..<m where previous[column].isFinite {
            let start = Int(previousStart[column])
            // A match much shorter or longer than the query is no match.
            let length = column - start + 1
            guard length * 3 >= n, length <= n * 3 else { continue }
            let cost = previous[column] / Float(n + length)
            costs[column] = cost
            if best == nil || cost < best!.cost { best = Match(start: start, end: column + 1, cost: cost) }
        }
        return (best, costs)
    }
}
