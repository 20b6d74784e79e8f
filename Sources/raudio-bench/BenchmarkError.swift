// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a benchmark did not produce its figure; `BenchmarkRunner` turns it into an exit status.
enum BenchmarkError: Error, CustomStringConvertible {
    /// A bad command line (exit 64).
    case usage(String)
    /// The measurement cannot be made in this build, for example an API not written yet (exit 2).
    case notMeasurable(String)
    /// The measurement started and failed (exit 1).
    case failed(String)

    var description: String {
        switch self {
        case .usage(let message), .notMeasurable(let message), .failed(let message): message
        }
    }
}
