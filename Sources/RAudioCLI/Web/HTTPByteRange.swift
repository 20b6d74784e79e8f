// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
/// A request's `Range` header (RFC 9110 §14), for one range of bytes.
///
/// `bytes=10-19`, `bytes=10-` and `bytes=-20` are understood. Several ranges (`bytes=0-1,5-6`) or
/// another unit are answered with the whole resource, as RFC 9110 allows a server that ignores `Range`.
enum HTTPByteRange: Equatable {
    /// No usable `Range`: the whole resource, 200.
    case whole
    /// These bytes, 206 with `Content-Range`.
    case bytes(Range<UInt64>)
    /// No byte of the range lies in the resource: 416 with `Content-Range: bytes */LENGTH`.
    case unsatisfiable

    /// The range that `header` asks of a resource of `length` bytes.
    init(header: String?, length: UInt64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let count = UInt64(last) else { self = .whole; return }
            guard count > 0, length > 0 else { self = .unsatisfiable; return }
            self = .bytes((length - min(count, length))..<length)
            return
        }
        guard let start = UInt64(first) else { self = .whole; return }
        var end = length
        if !last.isEmpty {
            guard let lastByte = UInt64(last), lastByte >= start else { self = .whole; return }
            end = min(length, lastByte == UInt64.max ? lastByte : lastByte + 1)
        }
        guard start < length else { self = .unsatisfiable; return }
        self = .bytes(start..<end)
    }
}
