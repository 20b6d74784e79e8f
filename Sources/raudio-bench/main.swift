// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

// raudio-bench: the in-process measurements of `make bench` (scripts/bench.sh).
//
// Each subcommand prints one JSON object per measurement on stdout (logs on stderr) and exits
// 0 when it measured, 2 when the measurement is not possible in this build ("status":
// "not-measured"), 64 for a usage error and 1 when the measurement itself failed.
let arguments = BenchmarkArguments(Array(CommandLine.arguments.dropFirst()))
let status: Int32
switch arguments.subcommand {
case "epub-iterate":
    status = BenchmarkRunner.run { try EPUBIterationBenchmark(arguments: arguments).run() }
case "epub-first-element":
    status = BenchmarkRunner.run { try EPUBFirstElementBenchmark(arguments: arguments).run() }
case "seek-latency":
    status = BenchmarkRunner.run { try SeekLatencyBenchmark(arguments: arguments).run() }
case "first-buffer":
    status = BenchmarkRunner.run { try FirstBufferBenchmark(arguments: arguments).run() }
case "speak-first-buffer":
    status = BenchmarkRunner.run { try SpeakFirstBufferBenchmark(arguments: arguments).run() }
case "speak-gaps":
    status = BenchmarkRunner.run { try SpeechGapBenchmark(arguments: arguments).run() }
case "narration-first-buffer":
    status = BenchmarkRunner.run { try NarrationFirstBufferBenchmark(arguments: arguments).run() }
case "state-store":
    status = BenchmarkRunner.run { try StateStoreBenchmark(arguments: arguments).run() }
case "narration-plan":
    status = BenchmarkRunner.run { try NarrationPlanBenchmark(arguments: arguments).run() }
default:
    FileHandle.standardError.write(Data(BenchmarkArguments.usage.utf8))
    status = arguments.subcommand == nil || arguments.subcommand == "--help" ? 0 : 64
}
exit(status)
