// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator

/// Reads a worker's answers from its stdout: JSON lines and the raw samples that follow them (the Piper
/// worker's, and eSpeak NG's `raudio espeak-worker`; the latter also reads its requests with it).
///
/// Wraps `read(2)` on the pipe's descriptor with a buffer; returns nil at end of file (the worker
/// exited). Used by the worker's thread only (handed to it once, hence `@unchecked Sendable`).
final class PiperPipeReader: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// The next line without its newline, or nil when the pipe ends first.
    func readLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            guard fill() else { return nil }
        }
    }

    /// Exactly `count` little-endian Float32 samples, or nil when the pipe ends first.
    ///
    /// The samples go into a buffer of `PCMSampleBufferPool.speech` (memory an earlier utterance played
    /// from, no fresh pages to fault in); what is not buffered yet is read straight into it.
    func readSamples(_ count: Int) -> [Float]? {
        var samples = PCMSampleBufferPool.speech.take(minimumCapacity: count)
        samples.append(contentsOf: repeatElement(0, count: count))
        let complete = samples.withUnsafeMutableBytes { read(into: $0) }
        return complete ? samples : nil
    }

    /// Fills `destination` with the next bytes: those buffered first, the rest read straight into it.
    /// False when the pipe ends first.
    func read(into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = destination.baseAddress else { return true }
        let byteCount = destination.count
        let buffered = min(buffer.count - start, byteCount)
        if buffered > 0 {
            buffer.withUnsafeBytes { source in base.copyMemory(from: source.baseAddress! + start, byteCount: buffered) }
            start += buffered
        }
        var filled = buffered
        while filled < byteCount {
            let read = Foundation.read(descriptor, base + filled, byteCount - filled)
            if read > 0 {
                filled += read
            } else if read < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Reads more bytes; false at end of file or on an error other than EINTR.
    private func fill() -> Bool {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let chunk = 1 << 16
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + oldCount, chunk) }
            if read > 0 {
                buffer.removeLast(chunk - read)
                return true
            }
            if read < 0, errno == EINTR { continue }
            buffer.removeLast(chunk)
            return false
        }
    }
}
