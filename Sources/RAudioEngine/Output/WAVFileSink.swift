// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator

/// An `AudioSink` that renders to a 16-bit PCM WAV file (`--output wav:FILE`).
///
/// The file is written under a temporary name beside the target (`.NAME.partial-XXXXXX`) and renamed to
/// the target only when `close()` succeeds, so a failed or interrupted render never leaves a file that
/// pretends to be complete: on any failure the temporary file is removed. Writes with POSIX `write`
/// (Foundation's `FileHandle.write(_:)` aborts on errors). Floats are clamped to [-1, 1] and rounded to
/// the nearest 16-bit value (scale 32767).
///
/// A WAV file has one format: the first `open(format:)` fixes it, and a later `open` with another format
/// throws `.outputFormatUnsupported`; convert with a `Resampler` (SoxrResampler) to `format` instead.
/// Returns as fast as the disk allows, or keeps the clock's pace with a `RealtimePacer`.
/// Render thread only. Ignores SIGXFSZ process-wide so that a file-size limit fails a write (EFBIG)
/// instead of killing the process.
public final class WAVFileSink: AudioSink {
    /// The file the render ends up in.
    public let url: URL
    /// The format fixed by the first `open(format:)`.
    public private(set) var format: PCMFormat?
    private let pacer: RealtimePacer?
    private let temporaryPath: String
    private var descriptor: Int32
    private var dataBytes: UInt64 = 0
    private var state: State = .writing
    /// Conversion buffer, allocated once: writes convert and flush through it in chunks.
    private let converted: UnsafeMutablePointer<Int16>
    private let convertedCapacity = 16_384

    private enum State { case writing, failed, closed }

    /// Creates the temporary file beside `url`. Throws `.cannotCreate` naming the file when the folder
    /// is missing or not writable.
    public init(url: URL, pacer: RealtimePacer? = nil) throws(AudioSinkError) {
        _ = Self.ignoreFileSizeSignal
        self.url = url
        self.pacer = pacer
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).partial-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw AudioSinkError(.cannotCreate, message: "cannot create output file \(url.path): \(Self.errorText(errno))")
        }
        fchmod(fd, 0o644)
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        converted = .allocate(capacity: convertedCapacity)
    }

    deinit {
        if state == .writing { abandon() }
        converted.deallocate()
    }

    public func open(format: PCMFormat) throws(AudioSinkError) {
        try checkWriting()
        if let current = self.format {
            guard current == format else {
                throw AudioSinkError(.outputFormatUnsupported, message: "\(url.path) is \(current); cannot switch to \(format) mid-file (resample to \(current) first)")
            }
            return
        }
        guard format.sampleRate > 0, format.sampleRate <= Int(UInt32.max / 8), (1...64).contains(format.channelCount) else {
            throw AudioSinkError(.outputFormatUnsupported, message: "\(url.path): a WAV file cannot hold \(format)")
        }
        self.format = format
        try writeAll(Self.header(format: format, dataBytes: 0))
        pacer?.start(sampleRate: format.sampleRate)
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        try checkWriting()
        guard let format else { throw AudioSinkError(.outputFormatUnsupported, message: "\(url.path): written before open(format:)") }
        guard dataBytes + UInt64(samples.count) * 2 <= UInt64(UInt32.max) - 36 else {
            fail()
            throw AudioSinkError(.writeFailed, message: "cannot write \(url.path): a WAV file cannot exceed 4 GiB")
        }
        var offset = 0
        while offset < samples.count {
            let count = min(convertedCapacity, samples.count - offset)
            // Locals, not the stored pointer: a store through `converted` could change `self.converted`
            // as far as the compiler knows, which keeps the loop from being vectorized.
            let source = UnsafeBufferPointer(rebasing: samples[offset..<offset + count])
            let destination = converted
            for index in 0..<count { destination[index] = Self.pcm16(source[index]) }
            try writeAll(UnsafeRawBufferPointer(start: converted, count: count * 2))
            offset += count
        }
        dataBytes += UInt64(samples.count) * 2
        pacer?.didWrite(frames: samples.count / format.channelCount)
    }

    public var pendingFrames: Int { 0 }
    public func pause() { pacer?.pause() }
    public func resume() { pacer?.resume() }
    public func flush() {}
    public func drain() throws(AudioSinkError) {}

    /// Writes the final sizes into the header, syncs, and renames the file to `url`. A second call
    /// does nothing. Throws `.writeFailed` (and removes the temporary file) when any step fails.
    public func close() throws(AudioSinkError) {
        if state == .closed { return }
        try checkWriting()
        let format = self.format ?? PCMFormat(sampleRate: 44_100, channelCount: 2)
        if self.format == nil { try writeAll(Self.header(format: format, dataBytes: 0)) }
        let header = Self.header(format: format, dataBytes: UInt32(dataBytes))
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == header.count else { throw failure("cannot finish \(url.path)", errno) }
        guard fsync(descriptor) == 0 else { throw failure("cannot write \(url.path)", errno) }
        let closed = Glibc.close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw failure("cannot write \(url.path)", errno) }
        guard rename(temporaryPath, url.path) == 0 else { throw failure("cannot rename the finished file to \(url.path)", errno) }
        state = .closed
    }

    private func checkWriting() throws(AudioSinkError) {
        switch state {
        case .writing: return
        case .failed: throw AudioSinkError(.writeFailed, message: "\(url.path) was not written: an earlier write failed")
        case .closed: throw AudioSinkError(.writeFailed, message: "\(url.path) is already closed")
        }
    }

    /// Writes all of `bytes` with POSIX `write`, retrying partial writes and EINTR.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(AudioSinkError) {
        var offset = 0
        while offset < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                throw failure("cannot write \(url.path)", code)
            }
            offset += result
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws(AudioSinkError) {
        // withUnsafeBytes rethrows untyped errors: carry ours out by hand.
        let error = bytes.withUnsafeBytes { raw -> AudioSinkError? in
            do throws(AudioSinkError) { try writeAll(raw); return nil } catch { return error }
        }
        if let error { throw error }
    }

    private func failure(_ what: String, _ code: Int32) -> AudioSinkError {
        fail()
        return AudioSinkError(.writeFailed, message: "\(what): \(Self.errorText(code))")
    }

    /// Closes and removes the temporary file; the sink refuses further work.
    private func fail() {
        abandon()
        state = .failed
    }

    private func abandon() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static let ignoreFileSizeSignal: Void = { _ = signal(SIGXFSZ, SIG_IGN) }()
}
