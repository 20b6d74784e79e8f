// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Reads the worker's answers from its stdout: JSON lines and the raw samples that follow them.
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
    func readSamples(_ count: Int) -> [Float]? {
        let byteCount = count * 4
        while buffer.count - start < byteCount {
            guard fill() else { return nil }
        }
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { destination in
            buffer.withUnsafeBytes { source in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + byteCount]))
            }
        }
        start += byteCount
        return samples
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
