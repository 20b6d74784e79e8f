// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Median, minimum and maximum of repeated timings, as the JSON the script reads.
struct Statistics {
    let values: [Double]

    init(_ values: [Double]) {
        self.values = values.sorted()
    }

    var median: Double {
        guard !values.isEmpty else { return .nan }
        let middle = values.count / 2
        return values.count.isMultiple(of: 2) ? (values[middle - 1] + values[middle]) / 2 : values[middle]
    }

    /// `{"median": .., "min": .., "max": .., "count": ..}` in milliseconds (values are milliseconds).
    var json: JSONValue {
        guard let first = values.first, let last = values.last else { return ["count": 0] }
        return [
            "median": .number(of: median), "min": .number(of: first), "max": .number(of: last),
            "count": .integer(Int64(values.count)),
        ]
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
