// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// The Python that runs raudio's forced-alignment worker (`aligner/worker.py`, SoundSwallower's HMM aligner with the
/// English and French acoustic models its PyPI package ships) and where `make deps` put it.
///
/// The virtual environment is `$RAUDIO_ALIGN_VENV`, else `share/raudio/align-venv` of an installed raudio, else
/// `.venv-align` of the source tree (`scripts/install-aligner.sh`); the worker is `aligner/worker.py`, found like the
/// voice presets (`$RAUDIO_ALIGNER_WORKER` names its folder). Pure lookups; any thread.
public struct ForcedAlignerRuntime: Sendable, Equatable {
    public var python: URL
    public var worker: URL

    /// The languages the worker has an acoustic model for.
    public static let languages: Set<String> = ["en", "fr"]

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: URL? = InstalledDataFolder.currentExecutable) -> ForcedAlignerRuntime? {
        var venv: URL?
        if let value = environment["RAUDIO_ALIGN_VENV"], !value.isEmpty {
            venv = URL(fileURLWithPath: value)
        } else if let installed = executable?.deletingLastPathComponent().appendingPathComponent("../share/raudio/align-venv").standardizedFileURL,
                  InstalledDataFolder.isFolder(installed) {
            venv = installed
        } else {
            venv = InstalledDataFolder.searchPath(for: ".venv-align", variable: "", environment: environment, executable: executable)
                .first(where: InstalledDataFolder.isFolder)
        }
        guard let venv, let folder = InstalledDataFolder.find("aligner", variable: "RAUDIO_ALIGNER_WORKER", environment: environment, executable: executable)
        else { return nil }
        let python = venv.appendingPathComponent("bin/python"), worker = folder.appendingPathComponent("worker.py")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: worker.path) else { return nil }
        return ForcedAlignerRuntime(python: python, worker: worker)
    }

    public static let installHint = "make the aligner's environment with `make deps` (the source tree's .venv-align: SoundSwallower from PyPI) or set RAUDIO_ALIGN_VENV"
}

/// One forced-alignment worker process: given consecutive sentences and the narration around them (16 kHz mono),
/// says where the first word of each is heard. It aligns the known text only (a grammar of those words, the words
/// just before and after optional); it never transcribes. Used from one thread at a time.
public final class ForcedAligner {
    /// Where a text's first word starts in the samples given, and where the word heard before it ends (nil: none
    /// was placed before it), in seconds.
    public struct Start: Equatable, Sendable {
        public var start: Double
        public var previousEnd: Double?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process: Process
    private let input: FileHandle
    private let reader: PiperPipeReader
    private let stderrTail: StandardErrorTail
    public let model: String

    /// Starts the worker for `language` (en or fr) and waits until its model is loaded.
    public init(language: String, runtime: ForcedAlignerRuntime) throws(Failure) {
        let process = Process()
        process.executableURL = runtime.python
        process.arguments = ["-u", "-S", runtime.worker.path, language]
        let pipes: ChildProcessLaunch.Pipes
        do {
            pipes = try ChildProcessLaunch.runWithPipes(process)
        } catch {
            throw Failure(description: "\(runtime.python.path): cannot start the aligner worker (\(error))")
        }
        let reader = PiperPipeReader(descriptor: pipes.output.fileHandleForReading.fileDescriptor)
        let stderrTail = StandardErrorTail(descriptor: pipes.error.fileHandleForReading.fileDescriptor, threadName: "raudio.aligner.stderr")
        func stop() {
            try? pipes.input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
        }
        guard let line = reader.readLine(), let object = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = object else {
            stderrTail.waitForEnd(timeout: 1)
            stop()
            throw Failure(description: "the aligner worker did not start: \(stderrTail.lastLines)")
        }
        if let message = fields["error"]?.stringValue {
            stop()
            throw Failure(description: "the aligner worker: \(message)")
        }
        self.process = process
        self.input = pipes.input.fileHandleForWriting
        self.reader = reader
        self.stderrTail = stderrTail
        model = fields["model"]?.stringValue ?? language
    }

    deinit { close() }

    /// Ends the worker (its stdin closed; it exits at end of file).
    public func close() {
        try? input.close()
        if process.isRunning {
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { [process] in if process.isRunning { process.terminate() } }
        }
    }

    /// For each of `texts` (consecutive sentences heard in `samples`, 16 kHz mono, in that order), where its first
    /// word starts, or nil when the aligner placed none of its words. `before` and `after` are the texts heard just
    /// before and after (their ends may be in `samples`). Throws when the worker has died.
    public func starts(of texts: [String], before: String?, after: String?, samples: [Float]) throws(Failure) -> [Start?] {
        var fields: [(String, JSONValue)] = [("texts", .array(texts.map { .string($0) })), ("samples", .integer(Int64(samples.count)))]
        if let before { fields.append(("before", .string(before))) }
        if let after { fields.append(("after", .string(after))) }
        var bytes = Array((JSONValue.object(JSONObject(fields)).serialized() + "\n").utf8)
        bytes.reserveCapacity(bytes.count + samples.count * 2)
        for sample in samples {
            let value = Int16(max(-32768, min(32767, (sample * 32768).rounded())))
            bytes.append(UInt8(truncatingIfNeeded: UInt16(bitPattern: value)))
            bytes.append(UInt8(truncatingIfNeeded: UInt16(bitPattern: value) >> 8))
        }
        let descriptor = input.fileDescriptor
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the aligner worker died: \(stderrTail.lastLines)") }
            written += count
        }
        guard let line = reader.readLine(), let object = try? JSONValue(parsing: Array(line.utf8)), case .object(let answer) = object,
              let list = answer["starts"]?.arrayValue else {
            throw Failure(description: "the aligner worker died: \(stderrTail.lastLines)")
        }
        return texts.indices.map { index -> Start? in
            guard index < list.count, let pair = list[index].arrayValue, let start = pair.first?.doubleValue else { return nil }
            return Start(start: start, previousEnd: pair.count > 1 ? pair[1].doubleValue : nil)
        }
    }
}

/// A track's samples at 16 kHz mono, read in order: `samples(_:)` for ranges that do not go back before the last
/// range's start (earlier samples are let go). Decoded by the engine's decoders, resampled with libsoxr.
public final class SequentialSamples {
    private let decoder: any AudioDecoder
    private let resampler: SoxrResampler
    private var buffer: [Float] = []
    /// The index of `buffer`'s first sample in the track.
    private var base = 0
    private var ended = false
    private var input: [Float]
    private var output: [Float]

    public init(decoder: any AudioDecoder) throws {
        self.decoder = decoder
        resampler = try SoxrResampler(from: decoder.format, to: PCMFormat(sampleRate: SpeechFeatures.sampleRate, channelCount: 1))
        input = [Float](repeating: 0, count: 16_384 * max(1, decoder.format.channelCount))
        output = [Float](repeating: 0, count: 16_384 * 4 + 1024)
    }

    /// The samples of `range` (sample indices at 16 kHz; cut at the track's end).
    public func samples(_ range: Range<Int>) -> [Float] {
        if range.lowerBound > base {
            let drop = min(buffer.count, range.lowerBound - base)
            buffer.removeFirst(drop)
            base += drop
        }
        while !ended, base + buffer.count < range.upperBound { readMore() }
        let lower = max(0, range.lowerBound - base), upper = max(lower, min(buffer.count, range.upperBound - base))
        return Array(buffer[lower..<upper])
    }

    private func readMore() {
        let channels = max(1, decoder.format.channelCount)
        let count: Int
        do {
            count = try input.withUnsafeMutableBufferPointer { pointer throws(AudioDecoderError) in
                try decoder.read(into: pointer.baseAddress!, maxFrames: pointer.count / channels)
            }
        } catch {
            count = 0
        }
        if count == 0 {
            resampler.flush()
            ended = true
        } else {
            input.withUnsafeBufferPointer { resampler.push(UnsafeBufferPointer(rebasing: $0[0..<(count * channels)])) }
        }
        while resampler.availableFrames > 0 {
            let pulled = output.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
            if pulled == 0 { break }
            buffer.append(contentsOf: output[0..<pulled])
        }
    }
}
