// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// `first-buffer BOOK`: the time from process start (`/proc/self/stat`) to the first buffer the
/// `AudioNavigator` hands to the output, playing BOOK from its start to the null output.
///
/// One measurement per process (the script runs many fresh processes and quotes the median): opens
/// BOOK with `PublicationOpener`, builds `AudioNavigator` with `AudioEngineComponents.make(output:
/// .null)` whose sink is wrapped in a `FirstWriteTimingSink`, calls `play()`, waits for the first
/// `write`, then closes. Also reports where the time went: process start to `main`, opening, the
/// navigator's init, and `play()` to the first write.
struct FirstBufferBenchmark {
    let book: String

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        book = try arguments.path("BOOK")
    }

    func run() throws(BenchmarkError) {
        guard let startBoot = ProcessStartTime.startBootSeconds() else {
            throw .notMeasurable("/proc/self/stat is not readable: no process start time")
        }
        let mainBoot = ProcessStartTime.bootTimeNow()
        let clock = ContinuousClock()
        let openStart = clock.now
        let publication: Publication
        do {
            // As `raudio play` opens it: a lone audio file's tags and chapters are read.
            // BOOK may be the http(s) URL of a remote manifest, streamed over libcurl.
            let url = Href.isRemote(book) ? URL(string: book) ?? URL(fileURLWithPath: book) : URL(fileURLWithPath: book)
            let opener = PublicationOpener(audioFileInspector: FFmpegAudioFileInspector(), remoteAccess: RemoteAccess(client: CurlHTTPClient()))
            publication = try opener.open(url: url)
        } catch {
            throw .failed("\(book): \(error)")
        }
        let opened = clock.now
        let record = FirstWriteTimingSink.Record()
        let components = AudioEngineComponents.make(output: .null).timingFirstWrite(into: record)
        let navigator: AudioNavigator
        do {
            navigator = try AudioNavigator(publication: publication, components: components)
        } catch {
            throw .failed("\(book): \(error)")
        }
        let built = clock.now
        let playCalled = Locked<ContinuousClock.Instant?>(nil)
        Task {
            playCalled.withLock { $0 = clock.now }
            await navigator.play()
        }
        guard record.waitForFirstWrite(timeout: 30), let firstBoot = record.bootSeconds,
              let firstInstant = record.instant else {
            throw .failed("\(book): no buffer was written within 30 s")
        }
        let closed = DispatchSemaphore(value: 0)
        Task {
            await navigator.close()
            closed.signal()
        }
        closed.wait()
        let play = playCalled.withLock { $0 } ?? built
        BenchmarkRunner.emit([
            "measurement": "first-buffer",
            "file": .string(book),
            "ms": .number(of: (firstBoot - startBoot) * 1000),
            "mainMs": .number(of: (mainBoot - startBoot) * 1000),
            "openMs": .number(of: (opened - openStart).milliseconds),
            "navigatorMs": .number(of: (built - opened).milliseconds),
            "playToFirstBufferMs": .number(of: (firstInstant - play).milliseconds),
            "tickMs": .number(of: 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))),
        ])
    }
}
