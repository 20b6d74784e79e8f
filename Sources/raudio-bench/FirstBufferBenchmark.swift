import Foundation
import ReadiumShared

/// `first-buffer BOOK`: the time from process start (`/proc/self/stat`) to the first buffer the
/// `AudioNavigator` hands to the output, playing BOOK from its start to the null output.
///
/// Not measurable yet: `AudioNavigator` is being written on the `navigator` branch and is not in
/// this build, so this reports `not-measured` (exit 2).
///
/// TODO(audio playback issue, once AudioNavigator is merged): fill in
///     func measure(book: String) throws(BenchmarkError) -> Double  // ms from process start
/// Open BOOK with `PublicationOpener`, build `AudioNavigator(publication:components:configuration:)`
/// with the engine's components writing to a sink that wraps `NullSink` and records, on its first
/// `write`, `ProcessStartTime.secondsSinceStart()`; call `play()`, wait for that first write, then
/// `close()`, and emit `["measurement": "first-buffer", "ms": ...]`. Note that the process start
/// time has a resolution of one clock tick (10 ms with CLK_TCK = 100): run it many times in the
/// script and quote the median.
struct FirstBufferBenchmark {
    let book: String

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        book = try arguments.path("BOOK")
    }

    func run() throws(BenchmarkError) {
        throw .notMeasurable("AudioNavigator is not in this build yet (branch navigator)")
    }
}
